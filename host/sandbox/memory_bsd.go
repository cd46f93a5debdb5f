//go:build darwin || freebsd

package sandbox

const mapNoReserve = 0
