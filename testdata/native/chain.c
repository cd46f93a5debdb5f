/* A call chain with known strings: main -> middle -> leaf, main -> copy.
   Built by the native tests with gcc, hardened and not. */
#include <stdio.h>
#include <string.h>
#include <uchar.h>

static const char *greeting = "rea-fixture-greeting";
__attribute__((used)) static const char16_t wide[] = u"rea-wide-string";

__attribute__((noinline)) int leaf(int x) { return x * 3 + 1; }

__attribute__((noinline)) int middle(int x) { return leaf(x) + leaf(x + 1); }

__attribute__((noinline)) void copy(char *dst, const char *src) { strcpy(dst, src); }

int main(int argc, char **argv) {
	char buf[32];
	snprintf(buf, sizeof buf, "%s", argv[0]);
	copy(buf, argc > 5 ? argv[1] : "short");
	printf("%s %d %s %d\n", greeting, middle(argc), buf, (int)wide[argc & 3]);
	return 0;
}
