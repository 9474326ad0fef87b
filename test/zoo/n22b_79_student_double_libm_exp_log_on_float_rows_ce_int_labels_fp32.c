/* A student's cross-entropy in plain C: float arrays but the double libm calls exp() and log()
 * (no f suffix), the max by if, int labels. */
#include <math.h>

void ce_student(int N, int C, const float x[N][C], const int y[N], float loss[N])
{
#pragma fuse kernel(ce_student) parallel(i)
	for (int i = 0; i < N; i++) {
		float mx = x[i][0];
		for (int j = 0; j < C; j++)
			if (x[i][j] > mx)
				mx = x[i][j];
		float sum = 0;
		for (int j = 0; j < C; j++)
			sum += exp(x[i][j] - mx);
		loss[i] = -(x[i][y[i]] - mx - log(sum));
	}
}
