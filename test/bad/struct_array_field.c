/* a struct parameter with an array field (ggml_tensor's ne[4]): refused at the field */
#include <stdint.h>
struct tensor { int64_t ne[4]; float *data; };
void f(const struct tensor *t, float *y)
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < t->ne[1]; r++) {
		float s = 0.0f;
		for (int j = 0; j < t->ne[0]; j++) s += t->data[r * t->ne[0] + j];
		y[r] = s;
	}
}
