package scanctltest_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"scanctl.local/scanctltest"
)

// The one emulator of this test binary, the team's app behind its webhook URL, and the
// checkpoint each test that uses them is restored to.
var (
	emu      *scanctltest.Emulator
	team     *teamApp
	baseline string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	if emu, err = scanctltest.New(scanctltest.Options{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer emu.Stop()
	record("main", emu)
	team = newTeamApp(emu)
	defer team.server.Close()
	if err := emu.SetWebhookURL(team.server.URL + "/webhooks"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if baseline, err = emu.Checkpoint("go-setup"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

// record writes an emulator's pid and URL into SCANCTL_TEST_RECORD, when set (the npm suite checks
// that none is left running). Named after the package's folder too: go test -p N runs several.
func record(name string, e *scanctltest.Emulator) {
	if folder := os.Getenv("SCANCTL_TEST_RECORD"); folder != "" {
		cwd, _ := os.Getwd()
		name = filepath.Base(cwd) + "-" + name
		data, _ := json.Marshal(map[string]interface{}{"worker": name, "pid": e.PID, "base_url": e.BaseURL})
		os.WriteFile(filepath.Join(folder, name+".json"), data, 0o644)
	}
}

// teamApp is a team's own backend: it mints through the service and takes webhooks, verified
// first, the first attempt of each event failed (500), the second acknowledged (204).
type teamApp struct {
	server   *httptest.Server
	mu       sync.Mutex
	received []string // the event id of each verified delivery
}

func newTeamApp(e *scanctltest.Emulator) *teamApp {
	app := &teamApp{}
	mux := http.NewServeMux()
	mux.HandleFunc("/sessions", func(w http.ResponseWriter, r *http.Request) {
		var in struct{ User string }
		json.NewDecoder(r.Body).Decode(&in)
		session, err := e.MintSession(in.User)
		if err != nil {
			http.Error(w, err.Error(), 502)
			return
		}
		w.WriteHeader(201)
		json.NewEncoder(w).Encode(map[string]string{"token": session.SessionToken})
	})
	mux.HandleFunc("/webhooks", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !scanctltest.VerifySignature(body, r.Header.Get("Service-Signature"), e.WebhookSecret) {
			w.WriteHeader(400)
			return
		}
		event := r.Header.Get("Service-Event-Id")
		app.mu.Lock()
		first := !contains(app.received, event)
		app.received = append(app.received, event)
		app.mu.Unlock()
		if first {
			w.WriteHeader(500)
		} else {
			w.WriteHeader(204)
		}
	})
	app.server = httptest.NewServer(mux)
	return app
}

// restored is the shared emulator for one test: restored to the setup's checkpoint afterwards,
// the team app's record of deliveries forgotten.
func restored(t *testing.T) *scanctltest.Emulator {
	emu.RestoreAfter(t, baseline)
	t.Cleanup(func() {
		team.mu.Lock()
		team.received = nil
		team.mu.Unlock()
	})
	return emu
}

func contains(list []string, item string) bool {
	for _, each := range list {
		if each == item {
			return true
		}
	}
	return false
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestMintsThroughTheTeamsOwnApp(t *testing.T) {
	e := restored(t)
	answer, err := http.Post(team.server.URL+"/sessions", "application/json", strings.NewReader(`{"user":"member_1"}`))
	must(t, err)
	defer answer.Body.Close()
	var body struct{ Token string }
	json.NewDecoder(answer.Body).Decode(&body)
	if answer.StatusCode != 201 || !strings.HasPrefix(body.Token, "vst_") {
		t.Fatalf("%d %q", answer.StatusCode, body.Token)
	}
	session, err := e.MintSession("member_1")
	must(t, err)
	if !strings.HasPrefix(session.SessionToken, "vst_") || session.ExpiresAt == "" {
		t.Fatalf("%+v", session)
	}
}

func TestARetriedWebhookIsVerifiedAndAcknowledged(t *testing.T) {
	e := restored(t)
	run, err := e.SimulateScan("member_1", scanctltest.PlayRetries())
	must(t, err)
	if !run.OK || run.Scan.State != "recorded" || len(run.Deliveries) != 1 {
		t.Fatalf("%+v", run)
	}
	delivery := run.Deliveries[0]
	if got := delivery.Statuses(); !reflect.DeepEqual(got, []int{500, 204}) {
		t.Fatalf("attempts %v", got)
	}
	team.mu.Lock()
	defer team.mu.Unlock()
	if !reflect.DeepEqual(team.received, []string{delivery.EventID, delivery.EventID}) {
		t.Fatalf("received %v, event %s", team.received, delivery.EventID)
	}
	if delivery.ScanID != run.Scan.ScanID || len(run.ClockMoves) != 1 {
		t.Fatalf("%+v", run)
	}
}

func TestEachTestStartsFromTheCheckpoint(t *testing.T) {
	e := restored(t)
	deliveries, err := e.Deliveries(scanctltest.Filter{})
	must(t, err)
	var scans struct{ Data []interface{} }
	must(t, e.Do("GET", "/_scanctl/apps/"+e.AppID+"/scans", nil, &scans))
	if len(deliveries) != 0 || len(scans.Data) != 0 {
		t.Fatalf("%d deliveries, %d scans left by another test", len(deliveries), len(scans.Data))
	}
}

func TestATamperedBodyIsRefused(t *testing.T) {
	secret := emu.WebhookSecret
	body := []byte(`{"id":"evt_1"}`)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	signature := hex.EncodeToString(mac.Sum(nil))
	if !scanctltest.VerifySignature(body, signature, secret) || !scanctltest.VerifySignature(body, strings.ToUpper(signature), secret) {
		t.Fatal("the right signature was refused")
	}
	if scanctltest.VerifySignature(append(body, ' '), signature, secret) || scanctltest.VerifySignature(body, "", secret) {
		t.Fatal("a tampered body or a missing signature was accepted")
	}
}

func TestWaitForDeliveriesPlaysRetriesOnTheClock(t *testing.T) {
	e := restored(t)
	run, err := e.SimulateScan("member_2", scanctltest.NoWait())
	must(t, err)
	filter := scanctltest.Filter{ScanID: run.Scan.ScanID}
	attempted, err := e.WaitForDeliveries(scanctltest.Wait{Filter: filter, Until: "attempted"})
	must(t, err)
	if len(attempted) != 1 || !reflect.DeepEqual(attempted[0].Statuses(), []int{500}) {
		t.Fatalf("%+v", attempted)
	}
	done, err := e.WaitForDeliveries(scanctltest.Wait{Filter: filter, PlayRetries: true})
	must(t, err)
	if !reflect.DeepEqual(done[0].Statuses(), []int{500, 204}) || done[0].Request.Body == "" {
		t.Fatalf("%+v", done[0])
	}
	_, err = e.WaitForDeliveries(scanctltest.Wait{Filter: scanctltest.Filter{ScanID: "scn_none"}, Timeout: 200 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("%v", err)
	}
}

func TestAdvanceClock(t *testing.T) {
	e := restored(t)
	start, err := e.Now()
	must(t, err)
	moved, err := e.AdvanceClock(2 * time.Hour)
	must(t, err)
	if moved.OffsetMS-start.OffsetMS < 7_200_000 {
		t.Fatalf("%+v -> %+v", start, moved)
	}
}

func TestARefusedMintIsAnAPIErrorWithItsStatus(t *testing.T) {
	_, err := restored(t).MintSession("")
	var refused *scanctltest.APIError
	if !errors.As(err, &refused) || refused.Status != 400 {
		t.Fatalf("%v", err)
	}
}

func TestCheckpointAndRestoreByName(t *testing.T) {
	e := restored(t)
	_, err := e.Checkpoint("before")
	must(t, err)
	_, err = e.MintSession("member_3")
	must(t, err)
	must(t, e.Restore("before"))
}

func TestTheRateLimitIsOffAsInEveryTestRun(t *testing.T) {
	e := restored(t)
	for n := 0; n < 120; n++ { // serve's default is 100 a second per key
		_, err := e.MintSession(fmt.Sprintf("member_%d", n))
		must(t, err)
	}
}

// Each Start is an emulator of its own, stopped through t.Cleanup: parallel tests do not meet.
func TestStartInParallelTests(t *testing.T) {
	for i := 0; i < 3; i++ {
		name := fmt.Sprintf("parallel%d", i)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := scanctltest.Start(t)
			record(name, e)
			if e.PID == 0 || e.BaseURL == emu.BaseURL {
				t.Fatalf("not an emulator of its own: %+v", e)
			}
			run, err := e.SimulateScan("member_p") // no webhook URL: recorded, nothing to deliver
			must(t, err)
			scans := struct{ Data []struct{ ID string } }{}
			must(t, e.Do("GET", "/_scanctl/apps/"+e.AppID+"/scans", nil, &scans))
			if !run.OK || len(scans.Data) != 1 || scans.Data[0].ID != run.Scan.ScanID {
				t.Fatalf("%+v %+v", run, scans)
			}
		})
	}
}

func TestNotFoundNamesAllFourWays(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SCANCTL_BASE_URL", "")
	t.Setenv("SCANCTL_BIN", "")
	t.Setenv("PATH", "/nonexistent")
	_, err := scanctltest.Find(dir)
	if !errors.Is(err, scanctltest.ErrNotFound) {
		t.Fatalf("%v", err)
	}
	for _, name := range []string{"SCANCTL_BASE_URL", "SCANCTL_BIN", "PATH", "node_modules/.bin/scanctl"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("%q does not name %s", err, name)
		}
	}
	t.Setenv("SCANCTL_BIN", filepath.Join(dir, "missing"))
	if _, err := scanctltest.New(scanctltest.Options{}); err == nil || !strings.Contains(err.Error(), "SCANCTL_BIN=") || !strings.Contains(err.Error(), "not an executable") {
		t.Fatalf("%v", err)
	}
}

func TestFindsNodeModulesBinAboveTheWorkingFolder(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "node_modules", ".bin", "scanctl")
	must(t, os.MkdirAll(filepath.Dir(bin), 0o755))
	must(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	must(t, os.Mkdir(filepath.Join(dir, "deep"), 0o755))
	t.Setenv("SCANCTL_BIN", "")
	t.Setenv("PATH", "/nonexistent")
	found, err := scanctltest.Find(filepath.Join(dir, "deep"))
	if err != nil || found != bin {
		t.Fatalf("%q %v", found, err)
	}
}

func TestUsesARunningEmulatorFromScanctlBaseURLAndNeverStopsIt(t *testing.T) {
	t.Setenv("SCANCTL_BASE_URL", emu.BaseURL)
	for _, name := range []string{"SCANCTL_APP_ID", "SCANCTL_SECRET_KEY", "SCANCTL_PUBLISHABLE_KEY", "SCANCTL_WEBHOOK_SECRET"} {
		t.Setenv(name, "")
	}
	restored(t)
	attached := scanctltest.Start(t)
	if attached.BaseURL != emu.BaseURL || attached.AppID != emu.AppID || attached.SecretKey != emu.SecretKey ||
		attached.WebhookSecret != emu.WebhookSecret || attached.PID != 0 {
		t.Fatalf("%+v", attached)
	}
	_, err := attached.MintSession("member_9")
	must(t, err)
	attached.Stop()
	_, err = emu.Now()
	must(t, err) // still running
}

func TestAServeThatFailsToStartSaysWhy(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "scanctl")
	must(t, os.WriteFile(fake, []byte("#!/bin/sh\necho 'scanctl: cannot start: nope' >&2\nexit 2\n"), 0o755))
	t.Setenv("SCANCTL_BASE_URL", "")
	t.Setenv("SCANCTL_BIN", fake)
	_, err := scanctltest.New(scanctltest.Options{})
	if err == nil || !strings.Contains(err.Error(), "exited 2 before it was ready") || !strings.Contains(err.Error(), "cannot start: nope") {
		t.Fatalf("%v", err)
	}
}

// The library needs nothing but the standard library: its go.mod requires nothing.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "scanctl.local/scanctltest").Output()
	must(t, err)
	if got := strings.TrimSpace(string(bytes.TrimSpace(out))); got != "scanctl.local/scanctltest" {
		t.Fatalf("non-standard imports: %q", got)
	}
}
