// Package scanctltest runs your Go tests against the scanctl emulator: the standard library only.
//
//	func TestWebhook(t *testing.T) {
//		e := scanctltest.Start(t) // stopped through t.Cleanup
//		run, err := e.SimulateScan("member_1", scanctltest.PlayRetries())
//		...
//	}
//
// # Finding scanctl
//
// SCANCTL_BASE_URL (an emulator already running: scanctl exec, the CI action, compose; used as it
// is and never stopped), else SCANCTL_BIN (the scanctl executable), else scanctl on PATH, else
// node_modules/.bin/scanctl in the working folder or one above it. None of them: one error naming
// all four.
//
// # Starting and stopping
//
// Each Start (or New) starts its own `scanctl serve --port 0 --json --db :memory:
// --stop-on-stdin-close`, in its own process group and temporary folder, ready once serve's JSON
// ready line arrived. Stop (run by t.Cleanup for Start) ends the whole group: SIGTERM, SIGKILL
// after 10 s. serve's stdin is a pipe only the test binary holds, so a binary that dies (a panic,
// -timeout, kill -9, Ctrl+C) leaves no emulator behind: serve stops when the pipe closes.
//
// # Parallel tests
//
// One emulator per Start call: each has its own port and in-memory database, so tests that call
// Start are safe under t.Parallel() and `go test -p N` (every package binary starts its own). An
// *Emulator is safe for concurrent use, but its state is shared: tests sharing one should not
// expect each other's scans to be absent.
//
// To share one emulator per test binary, start it in TestMain with New, take a checkpoint once
// the setup is done, and restore it after each test (RestoreAfter):
//
//	var emu *scanctltest.Emulator
//	var baseline string
//
//	func TestMain(m *testing.M) {
//		var err error
//		if emu, err = scanctltest.New(scanctltest.Options{}); err != nil {
//			fmt.Fprintln(os.Stderr, err)
//			os.Exit(1)
//		}
//		baseline, _ = emu.Checkpoint("setup")
//		code := m.Run()
//		emu.Stop() // os.Exit skips deferred calls
//		os.Exit(code)
//	}
//
//	func TestSomething(t *testing.T) {
//		emu.RestoreAfter(t, baseline) // not with t.Parallel(): the state is shared
//		...
//	}
package scanctltest
