/* An integer total of float steps across the rows: C truncates at every step
 * (n += 0.25f leaves n at 0), so the rows' order matters and the steps cannot be summed
 * per row and added up: refused (a float total, or integer steps, are sums). */
void weighted_count(int N, int C, const float x[N][C], int *cnt)
{
	int n = 0;
#pragma fuse kernel(weighted_count) parallel(i)
	for (int i = 0; i < N; i++)
		for (int c = 0; c < C; c++)
			n += x[i][c] > 0.0f ? 0.75f : 0.25f;
	*cnt = n;
}
