/* PROBE (message): a C programmer's softmax over an array of row pointers (float **rows, as their
 * batch is a list of separately allocated rows). Expected refused; is the message located and
 * does it say what to write instead? */
#include <math.h>

void softmax_rows(int R, int V, float **rows)
{
#pragma fuse kernel(softmax_rows) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, rows[r][v]);
		float s = 0.0f;
		for (int v = 0; v < V; v++)
			s += expf(rows[r][v] - m);
		for (int v = 0; v < V; v++)
			rows[r][v] = expf(rows[r][v] - m) / s;
	}
}
