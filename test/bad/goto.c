void f(int N, float x[N])
{
#pragma fuse kernel(k)
	for (int i = 0; i < N; i++) {
		if (i > 3)
			goto done;
		x[i] = 0.0f;
	done:
		x[i] += 1.0f;
	}
}
