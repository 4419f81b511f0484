// A Go test against scanctl: standard library only (testing, net/http, crypto/hmac). Run: go test
//
// Reaches the emulator named by the environment contract (SCANCTL_BASE_URL and the keys: set by
// `scanctl exec`, the CI action or compose), or starts one (`scanctl serve --json`) when it is not
// set; waits on its health route; mints a session; plays a scan with `scanctl scan simulate`; and
// checks that the webhook arrived signed, with Go's own HMAC.
package recipe

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// How to run scanctl's CLI (it plays the phone: `scan simulate`).
func scanctlCommand() []string {
	if command := os.Getenv("SCANCTL_COMMAND"); command != "" {
		return strings.Fields(command)
	}
	return []string{"node_modules/.bin/scanctl"}
}

// verify: Service-Signature is the hex HMAC-SHA256 of the raw body bytes, keyed with the whsec_ secret.
func verify(body []byte, signature, secret string) bool {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return hmac.Equal([]byte(hex.EncodeToString(mac.Sum(nil))), []byte(signature))
}

var contract = []string{"SCANCTL_BASE_URL", "SCANCTL_APP_ID", "SCANCTL_SECRET_KEY", "SCANCTL_PUBLISHABLE_KEY", "SCANCTL_WEBHOOK_SECRET"}

// startOrReach returns the contract's variables, from the environment or from a serve started now.
func startOrReach(t *testing.T) map[string]string {
	env := map[string]string{}
	if os.Getenv("SCANCTL_BASE_URL") != "" {
		for _, name := range contract {
			env[name] = os.Getenv(name)
		}
		return env
	}
	command := scanctlCommand()
	serve := exec.Command(command[0], append(command[1:], "serve", "--port", "0", "--json", "--db", ":memory:")...)
	stdout, _ := serve.StdoutPipe()
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Signal(os.Interrupt); serve.Wait() })
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	var ready struct{ Env map[string]string }
	if err != nil || json.Unmarshal(line, &ready) != nil {
		t.Fatalf("no ready line from scanctl serve: %v", err)
	}
	return ready.Env
}

// waitUntilReady polls GET /_scanctl/health until it answers 200 (503 while starting).
func waitUntilReady(t *testing.T, baseURL string, timeout time.Duration) {
	client := http.Client{Timeout: 5 * time.Second}
	for deadline := time.Now().Add(timeout); ; time.Sleep(100 * time.Millisecond) {
		if answer, err := client.Get(baseURL + "/_scanctl/health"); err == nil {
			answer.Body.Close()
			if answer.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("scanctl at %s not ready after %s", baseURL, timeout)
		}
	}
}

func scanctl(t *testing.T, env map[string]string, args ...string) string {
	command := scanctlCommand()
	cmd := exec.Command(command[0], append(command[1:], args...)...)
	cmd.Env = os.Environ()
	for name, value := range env {
		cmd.Env = append(cmd.Env, name+"="+value)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scanctl %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

func TestScanctl(t *testing.T) {
	env := startOrReach(t)
	baseURL := env["SCANCTL_BASE_URL"]
	waitUntilReady(t, baseURL, 30*time.Second)

	var mu sync.Mutex
	var events []map[string]any
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !verify(body, r.Header.Get("Service-Signature"), env["SCANCTL_WEBHOOK_SECRET"]) {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		var event map[string]any
		json.Unmarshal(body, &event)
		mu.Lock()
		events = append(events, event)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()

	t.Run("mints a session with the test secret key", func(t *testing.T) {
		request, _ := http.NewRequest("POST", baseURL+"/v1/sessions", strings.NewReader(`{"host_user_ref":"member_go"}`))
		request.Header.Set("Authorization", "Bearer "+env["SCANCTL_SECRET_KEY"])
		request.Header.Set("Content-Type", "application/json")
		answer, err := http.DefaultClient.Do(request)
		if err != nil {
			t.Fatal(err)
		}
		defer answer.Body.Close()
		var session struct{ SessionToken string `json:"session_token"` }
		json.NewDecoder(answer.Body).Decode(&session)
		if answer.StatusCode != 201 || !strings.HasPrefix(session.SessionToken, "vst_") {
			t.Fatalf("mint answered %d %q", answer.StatusCode, session.SessionToken)
		}
	})

	t.Run("a simulated scan sends a signed webhook", func(t *testing.T) {
		scanctl(t, env, "app", "update", "--webhook-url", receiver.URL+"/webhooks")
		out := scanctl(t, env, "scan", "simulate", "--user", "member_go", "--wait", "--json")
		var scan struct{ ScanID string `json:"scan_id"` }
		json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &scan)
		mu.Lock()
		defer mu.Unlock()
		found := false
		for _, event := range events {
			data, _ := event["data"].(map[string]any)
			found = found || (event["type"] == "scan.completed" && data["scan_id"] == scan.ScanID)
		}
		if !found {
			t.Fatalf("no signed scan.completed for %s among %v", scan.ScanID, events)
		}
	})

	t.Run("a changed body fails the signature check", func(t *testing.T) {
		mac := hmac.New(sha256.New, []byte(env["SCANCTL_WEBHOOK_SECRET"]))
		mac.Write([]byte(`{"id":"evt_1"}`))
		signature := fmt.Sprintf("%x", mac.Sum(nil))
		if !verify([]byte(`{"id":"evt_1"}`), signature, env["SCANCTL_WEBHOOK_SECRET"]) || verify([]byte(`{"id":"evt_2"}`), signature, env["SCANCTL_WEBHOOK_SECRET"]) {
			t.Fatal("verify accepts a changed body or refuses the signed one")
		}
	})
}
