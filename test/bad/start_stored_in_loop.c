/* a loop whose start is read from an array that the loop stores (a cursor consumed as it
 * goes): C reads the start once, before the loop, so the loop does not count from the
 * array's later values; not rebased as a packed row's offset, refused as not affine */
void f(int R, int N, int pos[R + 1], const float x[N], float y[R])
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int c = pos[r]; c < pos[r + 1]; c++) {
			s += x[c];
			pos[r] = c + 1;
		}
		y[r] = s;
	}
}
