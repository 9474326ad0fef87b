/* Paged decode over a flat pool of pages kpool/vpool [pages][PAGE][D] (its extent known
 * only to the caller) and a flat block_table [B][max_pages]: the page number in a const int
 * local, pointer row for q, split-k. */
#include <math.h>
#define PAGE 16
#define D 128
/* Paged decode over a flat pool of pages: kpool/vpool [num_pages, PAGE, D], block_table [B, max_pages]. */
void paged(int B, int H, int max_pages, const _Float16 *q, const _Float16 *kpool, const _Float16 *vpool,
           const int *block_table, const int *seq_lens, _Float16 *out, float scale)
{
#pragma fuse kernel(paged) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const _Float16 *qv = q + (b * H + h) * D;
			float m = -INFINITY;
			for (int j = 0; j < seq_lens[b]; j++) {
				const int page = block_table[b * max_pages + j / PAGE];
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)qv[d] * (float)kpool[(page * PAGE + j % PAGE) * D + d];
				m = fmaxf(m, s * scale);
			}
			float l = 0.0f;
			for (int j = 0; j < seq_lens[b]; j++) {
				const int page = block_table[b * max_pages + j / PAGE];
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)qv[d] * (float)kpool[(page * PAGE + j % PAGE) * D + d];
				l += expf(s * scale - m);
			}
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int j = 0; j < seq_lens[b]; j++) {
					const int page = block_table[b * max_pages + j / PAGE];
					float s = 0.0f;
					for (int e = 0; e < D; e++)
						s += (float)qv[e] * (float)kpool[(page * PAGE + j % PAGE) * D + e];
					acc += expf(s * scale - m) * (float)vpool[(page * PAGE + j % PAGE) * D + d];
				}
				out[(b * H + h) * D + d] = (_Float16)(acc / l);
			}
		}
}
