/* row_scratch_matrix_three_nests_fp32.c: a per-batch scratch matrix S[N][N] declared in the
 * batch loop, filled by one nest and read by two later nests (row sums of a matrix and of
 * its square, as a literal port of `S = X * w; y = S.sum(-1); z = (S * S).sum(-1)` keeps
 * the intermediate). Style: fp32, a constant-size 2-D local, three nests over i,
 * parallel(b). The scratch stays whole: no nest may take a slice of it. */
void scratch_rows(int B, int N, const float x[B][N][64], const float w[64], float y[B][N], float z[B][N])
{
#pragma fuse kernel(scratch_rows) parallel(b)
	for (int b = 0; b < B; b++) {
		float S[64][64];
		for (int i = 0; i < N; i++)
			for (int j = 0; j < 64; j++)
				S[i][j] = x[b][i][j] * w[j];
		for (int i = 0; i < N; i++) {
			float a = 0.0f;
			for (int j = 0; j < 64; j++)
				a += S[i][j];
			y[b][i] = a;
		}
		for (int i = 0; i < N; i++) {
			float c = 0.0f;
			for (int j = 0; j < 64; j++)
				c += S[i][j] * S[i][j];
			z[b][i] = c;
		}
	}
}
