/* A CUDA programmer's host reference for a log_softmax kernel: flat pointers, the row's offset
 * computed once as size_t, fp16 in and out, float math (what their __global__ would do per row). */
#include <math.h>
#include <stddef.h>

void log_softmax_fwd(int rows, int cols, const _Float16 *x, _Float16 *y)
{
#pragma fuse kernel(log_softmax_fwd) parallel(r)
	for (int r = 0; r < rows; r++) {
		const size_t off = (size_t)r * cols;
		float mx = -INFINITY;
		for (int c = 0; c < cols; c++) {
			float v = (float)x[off + c];
			mx = v > mx ? v : mx;
		}
		float s = 0.f;
		for (int c = 0; c < cols; c++)
			s += expf((float)x[off + c] - mx);
		const float lse = mx + logf(s);
		for (int c = 0; c < cols; c++)
			y[off + c] = (_Float16)((float)x[off + c] - lse);
	}
}
