/* true: succeed. */
int main(void) { return 0; }
