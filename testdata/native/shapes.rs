// shapes.rs is a Rust fixture for function discovery and demangling:
// traits, generics instantiated twice, closures and a panic path. Built
// with rustc at test time, never shipped.
use std::env;

trait Shape {
    fn area(&self) -> f64;
    fn name(&self) -> &'static str;
}

struct Rect { w: f64, h: f64 }
struct Circle { r: f64 }

impl Shape for Rect {
    #[inline(never)]
    fn area(&self) -> f64 { self.w * self.h }
    fn name(&self) -> &'static str { "rect" }
}

impl Shape for Circle {
    #[inline(never)]
    fn area(&self) -> f64 { 3.14159 * self.r * self.r }
    fn name(&self) -> &'static str { "circle" }
}

#[inline(never)]
fn total<T: Copy + std::ops::Add<Output = T> + Default>(xs: &[T]) -> T {
    xs.iter().fold(T::default(), |a, &b| a + b)
}

#[inline(never)]
fn make(i: usize) -> Box<dyn Shape> {
    if i % 2 == 1 { Box::new(Rect { w: i as f64, h: (i + 1) as f64 }) } else { Box::new(Circle { r: i as f64 }) }
}

fn main() {
    let n = env::args().count() + 3;
    let shapes: Vec<Box<dyn Shape>> = (0..n).map(make).collect();
    let areas: Vec<f64> = shapes.iter().map(|s| s.area()).collect();
    let counts: Vec<usize> = (0..n).collect();
    for s in &shapes {
        println!("{} {}", s.name(), s.area());
    }
    if n > 1000 {
        panic!("too many shapes");
    }
    println!("{} {}", total(&areas), total(&counts));
}
