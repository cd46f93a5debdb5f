package guidance

import "io/fs"

func fsRead(p string) (string, error) {
	b, err := fs.ReadFile(Bundle(), p)
	return string(b), err
}

func fsGlob(pattern string) ([]string, error) { return fs.Glob(Bundle(), pattern) }
