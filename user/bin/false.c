/* false: fail. */
int main(void) { return 1; }
