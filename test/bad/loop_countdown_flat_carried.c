/* a row loop counting down over flat pointers whose rows read the row after them: still
 * refused once the subscripts have their dimensions (y[t * C + c] reads y[(t + 1) * C + c]) */
void f(int T, int C, const float x[T * C], float y[(T + 1) * C])
{
#pragma fuse kernel(k)
	for (int t = T - 1; t >= 0; t--) {
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += x[t * C + c];
		for (int c = 0; c < C; c++)
			y[t * C + c] = y[(t + 1) * C + c] + s;
	}
}
