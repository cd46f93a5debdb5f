// shapes.cpp is a C++ fixture for function discovery and demangling:
// classes with virtual methods, a template instantiated twice, a
// namespace, static helpers and an exception path (so unwind tables and
// landing pads exist). Built with g++ at test time, never shipped.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace geometry {

struct Shape {
    virtual ~Shape() {}
    virtual double area() const = 0;
    virtual const char *name() const = 0;
};

struct Rect : Shape {
    double w, h;
    Rect(double w, double h) : w(w), h(h) {}
    double area() const override { return w * h; }
    const char *name() const override { return "rect"; }
};

struct Circle : Shape {
    double r;
    explicit Circle(double r) : r(r) {}
    double area() const override { return 3.14159 * r * r; }
    const char *name() const override { return "circle"; }
};

template <typename T>
__attribute__((noinline)) T sum(const std::vector<T> &xs) {
    T total = T();
    for (const T &x : xs) total += x;
    return total;
}

__attribute__((noinline)) static int checked(int v) {
    if (v < 0) throw std::runtime_error("negative shape count");
    return v * 2;
}

}  // namespace geometry

__attribute__((noinline)) static geometry::Shape *make(int i) {
    if (i % 2) return new geometry::Rect(i, i + 1);
    return new geometry::Circle(i);
}

int main(int argc, char **argv) {
    std::vector<double> areas;
    std::vector<int> counts;
    for (int i = 0; i < argc + 3; i++) {
        geometry::Shape *s = make(i);
        areas.push_back(s->area());
        counts.push_back(i);
        std::printf("%s %f\n", s->name(), s->area());
        delete s;
    }
    try {
        std::printf("%d\n", geometry::checked(argc - 2));
    } catch (const std::exception &e) {
        std::printf("error: %s\n", e.what());
    }
    std::printf("%f %d\n", geometry::sum(areas), geometry::sum(counts));
    return argv[0] ? 0 : 1;
}
