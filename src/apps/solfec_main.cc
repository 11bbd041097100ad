// The `solfec` launcher (placeholder until the CLI lands).
int main() { return 0; }
