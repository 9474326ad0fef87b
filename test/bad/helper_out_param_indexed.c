/* A helper's pointer parameter bound to the address of a scalar local (`two(&s, ...)`) is that
 * scalar: `*p` and `p[0]`. Indexing it further (`s[1]`) is refused, located in the helper. */
#include <math.h>
static void two(float *s, float a) { s[0] = a; s[1] = a; }
void f(int N, const float x[N][8], float y[N])
{
#pragma fuse kernel(f) parallel(i)
	for (int i = 0; i < N; i++) {
		float s;
		two(&s, x[i][0]);
		y[i] = s;
	}
}
