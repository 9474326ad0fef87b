/* softmax backward (PyTorch _softmax_backward_data): dx = y * (dy - sum(dy * y)). */
void softmax_bwd(int R, int C, const float y[R][C], const float dy[R][C], float dx[R][C])
{
#pragma fuse kernel(softmax_bwd) parallel(r)
	for (int r = 0; r < R; r++) {
		float dot = 0.0f;
		for (int c = 0; c < C; c++) dot += dy[r][c] * y[r][c];
		for (int c = 0; c < C; c++) dx[r][c] = y[r][c] * (dy[r][c] - dot);
	}
}
