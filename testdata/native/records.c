/* records.c: a fixture for debug information and navigation — a struct
   with padding and bit fields, an enum, a typedef, a call chain
   main -> dispatch -> stage_two -> stage_three, a distinctive constant and
   a string used by one function. Built by the native tests with gcc -g;
   with -DREA_PRINT_LAYOUT it prints the layout the compiler chose, which
   the tests hold rea's read_type to. */
#include <stddef.h>
#include <stdio.h>

enum rea_color { REA_RED = 1, REA_GREEN = 2, REA_BLUE = 40 };

typedef struct rea_record {
	char tag;
	int count;
	unsigned flags : 3;
	unsigned mode : 5;
	double weight;
	enum rea_color color;
	struct rea_record *next;
} rea_record_t;

#ifdef REA_PRINT_LAYOUT
int main(void) {
	printf("size %zu\n", sizeof(struct rea_record));
	printf("tag %zu\ncount %zu\nweight %zu\ncolor %zu\nnext %zu\n", offsetof(struct rea_record, tag), offsetof(struct rea_record, count),
	       offsetof(struct rea_record, weight), offsetof(struct rea_record, color), offsetof(struct rea_record, next));
	return 0;
}
#else
__attribute__((noinline)) int stage_three(rea_record_t *r) {
	return r->count * 0x5eed1 + r->flags;
}

__attribute__((noinline)) int stage_two(rea_record_t *r) {
	r->count += 3;
	return stage_three(r) + 1;
}

__attribute__((noinline)) int dispatch(rea_record_t *r, int n) {
	if (n > 2)
		return stage_two(r);
	puts("rea-dispatch-fallback");
	return 0;
}

int main(int argc, char **argv) {
	rea_record_t r = {.tag = 'x', .count = argc, .flags = 5, .mode = 9, .weight = 1.5, .color = REA_BLUE, .next = NULL};
	(void)argv;
	printf("%d\n", dispatch(&r, argc + 2));
	return 0;
}
#endif
