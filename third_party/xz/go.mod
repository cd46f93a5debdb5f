module github.com/therootcompany/xz

go 1.15
