/* GQA written with h / G on the store side: not affine in the parameters. */
void f(int H, int G, int N, const float k[H][N], float o[H][N])
{
#pragma fuse kernel(f) parallel(h, i)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++)
			o[h / G][i] = k[h][i];
}
