/* bf16 stored as raw uint16_t bits, widened by a shift through memcpy (llm.c, ggml): the
 * message names the declarations to write instead */
#include <stdint.h>
#include <string.h>
static inline float bf16_to_f32(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}
void rowsum(int R, int C, const uint16_t x[R][C], float y[R])
{
#pragma fuse kernel(rowsum) parallel(r)
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += bf16_to_f32(x[r][c]);
		y[r] = s;
	}
}
