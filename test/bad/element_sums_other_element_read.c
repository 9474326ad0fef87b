/* Sums into two elements of one output, started before the region: each element is a sum
 * of its own only while the region just adds to them; here one sum reads the other. */
void stats2(int n, const float x[n], float stats[2])
{
	stats[0] = 0.0f;
	stats[1] = 0.0f;
#pragma fuse kernel(stats2) parallel(i)
	for (int i = 0; i < n; i++) {
		stats[0] += x[i];
		stats[1] += x[i] - stats[0];
	}
}
