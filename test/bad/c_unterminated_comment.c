/* a comment that never ends
void f(int N, float y[N])
{
}
