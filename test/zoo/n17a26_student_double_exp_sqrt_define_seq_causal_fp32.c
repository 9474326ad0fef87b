/* A textbook student's single-head causal attention: #define SEQ and DIM constants, double
 * math functions (exp, sqrt) on float data, matrices at the top of the function. */
#include <math.h>
#define SEQ 96
#define DIM 64

void student_attention(const float Q[SEQ][DIM], const float K[SEQ][DIM], const float V[SEQ][DIM], float O[SEQ][DIM])
{
	float S[SEQ][SEQ];
	float rowmax, rowsum;
#pragma fuse kernel(student_attention) parallel(i) rolling(j)
	for (int i = 0; i < SEQ; i++) {
		for (int j = 0; j <= i; j++) {
			float dot = 0;
			for (int d = 0; d < DIM; d++) dot += Q[i][d] * K[j][d];
			S[i][j] = dot / sqrt(DIM);
		}
		rowmax = -INFINITY;
		for (int j = 0; j <= i; j++)
			if (S[i][j] > rowmax) rowmax = S[i][j];
		rowsum = 0;
		for (int j = 0; j <= i; j++) {
			S[i][j] = exp(S[i][j] - rowmax);
			rowsum += S[i][j];
		}
		for (int d = 0; d < DIM; d++) {
			float acc = 0;
			for (int j = 0; j <= i; j++) acc += S[i][j] / rowsum * V[j][d];
			O[i][d] = acc;
		}
	}
}
