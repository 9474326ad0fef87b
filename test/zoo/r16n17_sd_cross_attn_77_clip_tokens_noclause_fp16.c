/* Stable Diffusion UNet cross attention: 4096 latent pixels attend to 77 CLIP tokens (#define),
 * head dim 64 (#define), no mask, no clause; a diffusers port with the scores materialised. */
#include <math.h>
#define NTOK 77
#define HD 64

void sd_xattn(int B, int H, int NPIX, const _Float16 q[B][H][NPIX][HD], const _Float16 k[B][H][NTOK][HD],
	      const _Float16 v[B][H][NTOK][HD], _Float16 o[B][H][NPIX][HD])
{
#pragma fuse kernel(sd_xattn)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NPIX; i++) {
				float sim[NTOK];
				float mx = -INFINITY;
				for (int j = 0; j < NTOK; j++) {
					float s = 0.0f;
					for (int d = 0; d < HD; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					sim[j] = s * 0.125f;
					mx = fmaxf(mx, sim[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < NTOK; j++) { sim[j] = expf(sim[j] - mx); sum += sim[j]; }
				for (int d = 0; d < HD; d++) {
					float a = 0.0f;
					for (int j = 0; j < NTOK; j++) a += sim[j] / sum * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)a;
				}
			}
}
