/* A call chain with known strings: main -> middle -> leaf, main -> copy.
   Built by the native tests with gcc, hardened and not. */
#include <stdio.h>
#include <string.h>
#include <uchar.h>

#ifdef REA_V2
/* Version 2: a changed string, a changed leaf and an added call. */
static const char *greeting = "rea-fixture-greeting-v2";
#else
static const char *greeting = "rea-fixture-greeting";
#endif
__attribute__((used)) static const char16_t wide[] = u"rea-wide-string";

#ifdef REA_V2
__attribute__((noinline)) int leaf(int x) { return x * 7 - 5 + (x >> 2); }
__attribute__((noinline)) int extra(int x) { return x ^ 0x5a; }
#else
__attribute__((noinline)) int leaf(int x) { return x * 3 + 1; }
#endif

__attribute__((noinline)) int middle(int x) { return leaf(x) + leaf(x + 1); }

__attribute__((noinline)) void copy(char *dst, const char *src) { strcpy(dst, src); }

int main(int argc, char **argv) {
	char buf[32];
	snprintf(buf, sizeof buf, "%s", argv[0]);
	copy(buf, argc > 5 ? argv[1] : "short");
#ifdef REA_V2
	printf("%s %d %s %d %d\n", greeting, middle(argc), buf, (int)wide[argc & 3], extra(argc));
#else
	printf("%s %d %s %d\n", greeting, middle(argc), buf, (int)wide[argc & 3]);
#endif
	return 0;
}
