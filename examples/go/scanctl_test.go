// The harness of the Go recipe: one emulator for the whole run, a webhook receiver, and the
// emulator's state restored to a checkpoint after each test.
//
// The emulator is the real binary node_modules/.bin/scanctl (npm ci installs it from vendor/),
// started in its own process group and stopped whole at the end. With SCANCTL_BASE_URL set
// (scanctl exec, the CI action, compose), that emulator is used instead and nothing is started.
package recipe

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// env is the emulator's environment contract (SCANCTL_BASE_URL, SCANCTL_SECRET_KEY, ...).
var env = map[string]string{}

var receiver *Receiver

// checkpoint is the id of the state every test starts from.
var checkpoint string

// How to run scanctl's CLI: the real binary npm ci installed (or SCANCTL_COMMAND, e.g.
// "docker compose exec -T scanctl scanctl").
func command() []string {
	if c := os.Getenv("SCANCTL_COMMAND"); c != "" {
		return strings.Fields(c)
	}
	return []string{"node_modules/.bin/scanctl"}
}

var contract = []string{"SCANCTL_BASE_URL", "SCANCTL_APP_ID", "SCANCTL_SECRET_KEY", "SCANCTL_PUBLISHABLE_KEY", "SCANCTL_WEBHOOK_SECRET"}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if os.Getenv("SCANCTL_BASE_URL") != "" {
		for _, name := range contract {
			env[name] = os.Getenv(name)
		}
	} else {
		stop, err := serve()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer stop()
	}
	if err := waitUntilReady(env["SCANCTL_BASE_URL"], 30*time.Second); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	receiver = NewReceiver(env["SCANCTL_WEBHOOK_SECRET"])
	defer receiver.Close()
	// The suite's setup, done once, then checkpointed.
	if _, err := scanctl("app", "update", "--webhook-url", receiver.URL+"/webhooks"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var taken struct{ ID string }
	if err := scanctlJSON(&taken, "state", "checkpoint", "go-setup"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	checkpoint = taken.ID
	return m.Run()
}

// serve starts `scanctl serve` in its own process group and returns what stops the group.
func serve() (func(), error) {
	c := command()
	cmd := exec.Command(c[0], append(c[1:], "serve", "--port", "0", "--json", "--db", ":memory:")...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	// serve --json: one ready line, nothing before it, with the environment contract.
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	var ready struct{ Env map[string]string }
	if err == nil {
		err = json.Unmarshal(line, &ready)
	}
	if err != nil {
		stop()
		return nil, fmt.Errorf("no ready line from scanctl serve: %v", err)
	}
	for name, value := range ready.Env {
		env[name] = value
	}
	go io.Copy(io.Discard, stdout)
	return stop, nil
}

// waitUntilReady polls GET /_scanctl/health until it answers 200 (503 while starting).
func waitUntilReady(baseURL string, timeout time.Duration) error {
	client := http.Client{Timeout: 5 * time.Second}
	for deadline := time.Now().Add(timeout); ; time.Sleep(100 * time.Millisecond) {
		if answer, err := client.Get(baseURL + "/_scanctl/health"); err == nil {
			answer.Body.Close()
			if answer.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("scanctl at %s not ready after %s", baseURL, timeout)
		}
	}
}

// scanctl runs the CLI against the emulator and returns its standard output.
func scanctl(args ...string) (string, error) {
	c := command()
	cmd := exec.Command(c[0], append(c[1:], args...)...)
	cmd.Env = os.Environ()
	for name, value := range env {
		cmd.Env = append(cmd.Env, name+"="+value)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("scanctl %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// scanctlJSON runs a --json command and decodes its answer: its one object, or the last of its
// lines (a stream's result).
func scanctlJSON(into any, args ...string) error {
	out, err := scanctl(append(args, "--json")...)
	if err != nil {
		return err
	}
	out = strings.TrimSpace(out)
	if json.Unmarshal([]byte(out), into) == nil {
		return nil
	}
	lines := strings.Split(out, "\n")
	return json.Unmarshal([]byte(lines[len(lines)-1]), into)
}

// restored registers the restore of the checkpoint after the test: the whole emulator state
// (clock and pending deliveries too) goes back to what the setup left.
func restored(t *testing.T) {
	t.Helper()
	t.Cleanup(func() {
		if _, err := scanctl("state", "restore", checkpoint); err != nil {
			t.Fatal(err)
		}
		receiver.Clear()
	})
}

// Delivery is what the receiver saw of one POST.
type Delivery struct {
	EventID  string
	Verified bool
	Event    map[string]any
}

// Receiver is your backend's webhook endpoint in miniature: it verifies before it parses, fails
// each event's first attempt (HTTP 500) and acknowledges the second (204), so every test plays a retry.
type Receiver struct {
	*httptest.Server
	mu         sync.Mutex
	deliveries []Delivery
}

func NewReceiver(secret string) *Receiver {
	r := &Receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		d := Delivery{EventID: req.Header.Get("Service-Event-Id"), Verified: Verify(body, req.Header.Get("Service-Signature"), secret)}
		if d.Verified {
			json.Unmarshal(body, &d.Event)
		}
		r.mu.Lock()
		first := true
		for _, seen := range r.deliveries {
			first = first && seen.EventID != d.EventID
		}
		r.deliveries = append(r.deliveries, d)
		r.mu.Unlock()
		switch {
		case !d.Verified:
			w.WriteHeader(http.StatusBadRequest)
		case first:
			w.WriteHeader(http.StatusInternalServerError)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	return r
}

func (r *Receiver) Deliveries() []Delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Delivery(nil), r.deliveries...)
}

func (r *Receiver) Clear() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.deliveries = nil
}
