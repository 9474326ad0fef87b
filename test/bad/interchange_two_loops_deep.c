/* Keys outer, heads of the group inner (a CPU GQA decode): the P.V's loop over the keys sits
 * two loops deep (g, then d). The message says what to write: make g a row of its own. */
#include <math.h>
void keys_outer(int G, int L, const float q[G][64], const float k[L][64], const float v[L][64], float o[G][64])
{
#pragma fuse kernel(keys_outer)
	for (int b = 0; b < 1; b++) {
		float sc[G][L];
		float m[G], l[G];
		for (int g = 0; g < G; g++) { m[g] = -INFINITY; l[g] = 0.0f; }
		for (int j = 0; j < L; j++)
			for (int g = 0; g < G; g++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[g][d] * k[j][d];
				sc[g][j] = s;
				m[g] = fmaxf(m[g], s);
			}
		for (int j = 0; j < L; j++)
			for (int g = 0; g < G; g++) { sc[g][j] = expf(sc[g][j] - m[g]); l[g] += sc[g][j]; }
		for (int g = 0; g < G; g++)
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++) acc += sc[g][j] * v[j][d];
				o[g][d] = acc / l[g];
			}
	}
}
