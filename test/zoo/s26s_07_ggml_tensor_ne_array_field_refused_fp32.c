/* A ggml contributor passes the tensor itself: `const struct tensor *src` with ggml's
 * int64_t ne[4] shape array and the data pointer, and reads src->ne[0]. An array field is
 * refused at the field (check the message). */
#include <math.h>
#include <stdint.h>

struct tensor {
	int64_t ne[4];
	const float *data;
};

void row_sum_tensor(const struct tensor *src, float *dst)
{
#pragma fuse kernel(row_sum_tensor) parallel(r)
	for (int r = 0; r < src->ne[1]; r++) {
		float s = 0.0f;
		for (int c = 0; c < src->ne[0]; c++)
			s += src->data[r * src->ne[0] + c];
		dst[r] = s;
	}
}
