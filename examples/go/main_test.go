package recipe

import (
	"fmt"
	"net/http/httptest"
	"os"
	"testing"

	"scanctl.local/scanctltest"
)

// One emulator for the test binary, the app behind its webhook URL, and the checkpoint each test is
// restored to (restored(t)).
var (
	emu      *scanctltest.Emulator
	app      = &App{}
	server   = httptest.NewServer(app)
	baseline string
)

func TestMain(m *testing.M) {
	var err error
	if emu, err = scanctltest.New(scanctltest.Options{}); err == nil {
		if err = emu.SetWebhookURL(server.URL + "/webhooks"); err == nil {
			baseline, err = emu.Checkpoint("setup")
		}
	}
	code := 1
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		for name, value := range emu.Env() {
			os.Setenv(name, value) // the app reads SCANCTL_* as it would in production
		}
		code = m.Run()
	}
	if emu != nil {
		emu.Stop() // os.Exit runs no deferred call
	}
	os.Exit(code)
}

func restored(t *testing.T) *scanctltest.Emulator {
	emu.RestoreAfter(t, baseline)
	t.Cleanup(func() {
		app.mu.Lock()
		app.Received = nil
		app.mu.Unlock()
	})
	return emu
}
