/* Integer sums beside a float one: a row's token-id checksum and count of kept tokens
 * (integer steps only) next to its mean of kept values. The integer sums are exact in any
 * order, so they fuse as they are; on the GPU their CTA merge runs in double. */
void stats(int N, int M, const int ids[N][M], const unsigned char keep[N][M], const float x[N][M],
           int checksum[N], int count[N], float mean[N])
{
#pragma fuse kernel(stats) parallel(i) splitk(j)
	for (int i = 0; i < N; i++) {
		int s = 0, n = 0;
		float t = 0.0f;
		for (int j = 0; j < M; j++) {
			s += ids[i][j];
			if (keep[i][j]) {
				n++;
				t += x[i][j];
			}
		}
		checksum[i] = s;
		count[i] = n;
		mean[i] = n > 0 ? t / n : 0.0f;
	}
}
