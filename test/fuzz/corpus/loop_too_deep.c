/* Eleven nested loops: a region may nest at most ten (the dependence analysis grows steeply with depth). */
void f(int N, float y[N])
{
#pragma fuse kernel(deep) parallel(a)
	for (int a = 0; a < N; a++)
for (int b = 0; b < N; b++)
for (int c = 0; c < N; c++)
for (int d = 0; d < N; d++)
for (int e = 0; e < N; e++)
for (int f = 0; f < N; f++)
for (int g = 0; g < N; g++)
for (int h = 0; h < N; h++)
for (int i = 0; i < N; i++)
for (int j = 0; j < N; j++)
for (int k = 0; k < N; k++)
		y[a] = 1.0f;
}
