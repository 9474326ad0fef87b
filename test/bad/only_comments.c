/* A file with no region: nothing to compile. */
// void f(void) {}
