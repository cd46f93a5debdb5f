// Command helper is the test program the capture tests run: one binary
// whose first argument picks a behaviour (daemons, signal ignorers, file
// writers, floods, prompts).
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: helper MODE [ARGS]")
		os.Exit(2)
	}
	args := os.Args[2:]
	switch os.Args[1] {
	case "sleep":
		// Sleep until killed; print pid so tests can find it.
		fmt.Printf("sleeping %d\n", os.Getpid())
		sleepForever()
	case "daemon", "daemon-and-wait":
		// Fork a child in a new session that starts the real daemon and
		// exits, leaving an orphaned grandchild detached from rea's group
		// (the double-fork + setsid idiom). The grandchild writes its pid to
		// args[0].
		cmd := exec.Command(os.Args[0], "daemon-middle", args[0])
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		must(cmd.Start())
		must(cmd.Wait())
		for range 500 { // until the grandchild has written its pid
			if _, err := os.Stat(args[0]); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		fmt.Println("daemon started")
		if os.Args[1] == "daemon-and-wait" {
			sleepForever()
		}
	case "daemon-middle":
		cmd := exec.Command(os.Args[0], "daemon-child", args[0])
		must(cmd.Start())
		os.Exit(0) // orphan the grandchild without waiting
	case "daemon-child":
		must(os.WriteFile(args[0]+".tmp", []byte(strconv.Itoa(os.Getpid())), 0o644))
		must(os.Rename(args[0]+".tmp", args[0]))
		sleepForever()
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
		fmt.Println("ignoring SIGTERM")
		sleepForever()
	case "strip-token":
		// Start a grandchild with an environment without the run token in
		// this process's group, write its pid to args[0], then sleep.
		cmd := exec.Command(os.Args[0], "sleep")
		cmd.Env = []string{"UNRELATED=1"}
		must(cmd.Start())
		must(os.WriteFile(args[0], []byte(strconv.Itoa(cmd.Process.Pid)), 0o644))
		fmt.Println("stripped child started")
		sleepForever()
	case "write-files":
		// write-files DIR N: create N files, then exit.
		n, _ := strconv.Atoi(args[1])
		for i := range n {
			must(os.WriteFile(filepath.Join(args[0], fmt.Sprintf("f%03d.txt", i)), []byte(fmt.Sprintf("file %d\n", i)), 0o644))
		}
		fmt.Printf("wrote %d files\n", n)
	case "die-signal":
		fmt.Println("about to die")
		must(syscall.Kill(os.Getpid(), syscall.SIGKILL))
		sleepForever()
	case "exit":
		code, _ := strconv.Atoi(args[0])
		fmt.Println("exiting")
		os.Exit(code)
	case "flood":
		// flood N: write N bytes of 'x' to stdout.
		n, _ := strconv.ParseInt(args[0], 10, 64)
		buf := []byte(strings.Repeat("x", 64<<10))
		for n > 0 {
			k := min(n, int64(len(buf)))
			if _, err := os.Stdout.Write(buf[:k]); err != nil {
				os.Exit(1)
			}
			n -= k
		}
	case "prompt":
		// prompt FILE: ask for a line, store it in FILE, confirm its length.
		fmt.Print("Password: ")
		line, err := bufio.NewReader(os.Stdin).ReadString('\n')
		if err != nil {
			os.Exit(3)
		}
		must(os.WriteFile(args[0], []byte(line), 0o600))
		fmt.Printf("\ngot %d bytes\n", len(line))
	case "ready-then-wait":
		// Print "ready" twice with a pause, then echo stdin lines until EOF.
		fmt.Println("ready")
		time.Sleep(50 * time.Millisecond)
		fmt.Println("ready")
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			fmt.Printf("echo:%s\n", sc.Text())
		}
		fmt.Println("eof")
	case "exec-clean":
		// After a pause, replace this program with "sleep" under an
		// environment without the run token (same pid, same start time).
		fmt.Println("about to exec")
		time.Sleep(400 * time.Millisecond)
		must(syscall.Exec(os.Args[0], []string{os.Args[0], "sleep"}, []string{"CLEAN=1"}))
	case "silent":
		sleepForever()
	case "forks":
		// forks N [READYFILE]: start N sleeping children, say so (in
		// READYFILE too), then sleep.
		n, _ := strconv.Atoi(args[0])
		for range n {
			must(exec.Command(os.Args[0], "silent").Start())
		}
		fmt.Printf("started %d\n", n)
		if len(args) > 1 { // forks N READYFILE
			must(os.WriteFile(args[1], []byte("ready"), 0o644))
		}
		sleepForever()
	case "winsize":
		// Report SIGWINCH arrivals until stdin closes.
		ch := make(chan os.Signal, 4)
		signal.Notify(ch, syscall.SIGWINCH)
		fmt.Println("waiting")
		<-ch
		fmt.Println("resized")
	default:
		fmt.Fprintf(os.Stderr, "unknown mode %q\n", os.Args[1])
		os.Exit(2)
	}
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// sleepForever blocks without tripping Go's deadlock detector (select{}
// with no other goroutine aborts the program).
func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}
