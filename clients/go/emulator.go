package scanctltest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const control = "/_scanctl"

// Options are how New starts serve. The zero value is an in-memory database, the bundled fixtures,
// a running clock and the rate limit off (as in every scanctl test run: a fast suite meets no 429
// it did not ask for).
type Options struct {
	Fixtures    string        // a fixture file
	Seed        *int64        // draw every id and token from this seed
	FrozenClock bool          // the virtual clock moves only when a test moves it
	ClockStart  string        // start the virtual clock at this time (2026-01-01T09:00:00Z)
	DB          string        // a SQLite file instead of :memory:
	RateLimit   int           // requests a second per key (0: off)
	Args        []string      // more arguments for serve
	Timeout     time.Duration // for the ready line (default 60 s)
}

// Emulator is a running emulator: its URL and the default app's test credentials, and its control
// plane. Safe for concurrent use.
type Emulator struct {
	BaseURL        string
	AppID          string
	SecretKey      string
	PublishableKey string
	WebhookSecret  string
	// PID is the emulator's process id when this package started it, 0 for SCANCTL_BASE_URL.
	PID int

	client  *http.Client
	process *process
	mu      sync.Mutex
	cookie  string
}

// APIError is a call the emulator answered outside 2xx: its status and error body.
type APIError struct {
	Method, Path string
	Status       int
	Body         []byte
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%s %s answered %d: %.500s", e.Method, e.Path, e.Status, e.Body)
}

// Start is New for one test: it fails t when the emulator cannot start and stops it through
// t.Cleanup. Each call starts its own emulator (see the package doc for one per test binary).
func Start(t testing.TB, options ...Options) *Emulator {
	t.Helper()
	var o Options
	if len(options) > 0 {
		o = options[0]
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Stop)
	return e
}

// New is an emulator for the caller: the one SCANCTL_BASE_URL names (never stopped by Stop), else
// a new `scanctl serve --port 0 --json --db :memory:` (or o.DB), ready once its JSON ready line
// arrived. Call Stop when done.
func New(o Options) (*Emulator, error) {
	if base := os.Getenv("SCANCTL_BASE_URL"); base != "" {
		return attach(base)
	}
	command, err := Find("")
	if err != nil {
		return nil, err
	}
	db := ":memory:"
	if o.DB != "" && o.DB != db {
		if db, err = filepath.Abs(o.DB); err != nil {
			return nil, err
		}
	}
	args := []string{"--db", db, "--rate-limit", strconv.Itoa(o.RateLimit)}
	if o.Fixtures != "" {
		fixtures, err := filepath.Abs(o.Fixtures)
		if err != nil {
			return nil, err
		}
		args = append(args, "--fixtures", fixtures)
	}
	if o.Seed != nil {
		args = append(args, "--seed", strconv.FormatInt(*o.Seed, 10))
	}
	if o.FrozenClock {
		args = append(args, "--frozen-clock")
	}
	if o.ClockStart != "" {
		args = append(args, "--clock-start", o.ClockStart)
	}
	timeout := o.Timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	p, ready, err := startProcess(command, append(args, o.Args...), timeout)
	if err != nil {
		return nil, err
	}
	e := newEmulator(ready.BaseURL)
	e.AppID, e.SecretKey, e.PublishableKey = ready.AppID, ready.TestSecretKey, ready.TestPublishableKey
	e.WebhookSecret = ready.Env["SCANCTL_WEBHOOK_SECRET"]
	e.process, e.PID = p, p.cmd.Process.Pid
	return e, nil
}

func newEmulator(base string) *Emulator {
	transport := &http.Transport{MaxIdleConnsPerHost: 32, IdleConnTimeout: 30 * time.Second}
	return &Emulator{BaseURL: strings.TrimRight(base, "/"), client: &http.Client{Transport: transport, Timeout: 130 * time.Second}}
}

// attach is an emulator someone else runs: its credentials from the environment, else from its control plane.
func attach(base string) (*Emulator, error) {
	e := newEmulator(base)
	e.AppID, e.SecretKey = os.Getenv("SCANCTL_APP_ID"), os.Getenv("SCANCTL_SECRET_KEY")
	e.PublishableKey, e.WebhookSecret = os.Getenv("SCANCTL_PUBLISHABLE_KEY"), os.Getenv("SCANCTL_WEBHOOK_SECRET")
	if e.AppID == "" {
		var info struct {
			DefaultAppID string `json:"default_app_id"`
		}
		if err := e.Do("GET", control+"/info", nil, &info); err != nil {
			return nil, err
		}
		e.AppID = info.DefaultAppID
	}
	if e.SecretKey == "" || e.PublishableKey == "" {
		var keys struct {
			Test struct{ Secret, Publishable string }
		}
		if err := e.Do("GET", control+"/apps/"+e.AppID+"/fixture-keys", nil, &keys); err != nil {
			return nil, err
		}
		if e.SecretKey == "" {
			e.SecretKey = keys.Test.Secret
		}
		if e.PublishableKey == "" {
			e.PublishableKey = keys.Test.Publishable
		}
	}
	if e.WebhookSecret == "" {
		var secret struct {
			WebhookSecret string `json:"webhook_secret"`
		}
		if err := e.Do("GET", control+"/apps/"+e.AppID+"/webhook-secret", nil, &secret); err != nil {
			return nil, err
		}
		e.WebhookSecret = secret.WebhookSecret
	}
	return e, nil
}

// Stop stops the emulator this package started, with its whole process group; a SCANCTL_BASE_URL
// one is left running. Safe to call twice.
func (e *Emulator) Stop() {
	e.client.CloseIdleConnections()
	if e.process != nil {
		e.process.stop()
	}
}

// Env is the environment contract (SCANCTL_BASE_URL, SCANCTL_APP_ID, SCANCTL_SECRET_KEY,
// SCANCTL_PUBLISHABLE_KEY, SCANCTL_WEBHOOK_SECRET), for code of yours that reads SCANCTL_*.
func (e *Emulator) Env() map[string]string {
	return map[string]string{
		"SCANCTL_BASE_URL":        e.BaseURL,
		"SCANCTL_APP_ID":          e.AppID,
		"SCANCTL_SECRET_KEY":      e.SecretKey,
		"SCANCTL_PUBLISHABLE_KEY": e.PublishableKey,
		"SCANCTL_WEBHOOK_SECRET":  e.webhookSecret(),
	}
}

// Do makes one call: body (if not nil) sent as JSON, a 2xx answer decoded into out (if not nil),
// any other status an *APIError.
func (e *Emulator) Do(method, path string, body, out interface{}) error {
	return e.do(method, path, body, out, nil)
}

func (e *Emulator) do(method, path string, body, out interface{}, headers map[string]string) error {
	_, err := e.call(method, path, body, out, headers)
	return err
}

func (e *Emulator) call(method, path string, body, out interface{}, headers map[string]string) (http.Header, error) {
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		reader = bytes.NewReader(data)
	}
	request, err := http.NewRequest(method, e.BaseURL+path, reader)
	if err != nil {
		return nil, err
	}
	if body != nil {
		request.Header.Set("content-type", "application/json")
	}
	for name, value := range headers {
		request.Header.Set(name, value)
	}
	answer, err := e.client.Do(request)
	if err != nil {
		return nil, err
	}
	defer answer.Body.Close()
	raw, err := io.ReadAll(answer.Body)
	if err != nil {
		return nil, err
	}
	if answer.StatusCode < 200 || answer.StatusCode > 299 {
		return answer.Header, &APIError{Method: method, Path: path, Status: answer.StatusCode, Body: raw}
	}
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			return answer.Header, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return answer.Header, nil
}

// Checkpoint keeps the whole state (every table, the clock, pending deliveries); returns its id.
// name may be "".
func (e *Emulator) Checkpoint(name string) (string, error) {
	var body interface{}
	if name != "" {
		body = map[string]string{"name": name}
	}
	var taken struct{ ID string }
	err := e.Do("POST", control+"/state/checkpoints", body, &taken)
	return taken.ID, err
}

// Restore puts the state back as the checkpoint (id or name) holds it.
func (e *Emulator) Restore(checkpoint string) error {
	return e.Do("POST", control+"/state/checkpoints/"+url.PathEscape(checkpoint)+"/restore", nil, nil)
}

// RestoreAfter restores the checkpoint when t ends (t.Cleanup), failing t if it cannot.
func (e *Emulator) RestoreAfter(t testing.TB, checkpoint string) {
	t.Helper()
	t.Cleanup(func() {
		if err := e.Restore(checkpoint); err != nil {
			t.Errorf("restoring %s: %v", checkpoint, err)
		}
	})
}

// Session is the 201 body of POST /v1/sessions.
type Session struct {
	SessionToken string `json:"session_token"`
	ExpiresAt    string `json:"expires_at"`
}

// MintSession is POST /v1/sessions with the test secret key, as your backend calls it.
func (e *Emulator) MintSession(user string) (Session, error) {
	var session Session
	err := e.do("POST", "/v1/sessions", map[string]string{"host_user_ref": user}, &session,
		map[string]string{"authorization": "Bearer " + e.SecretKey})
	return session, err
}

// AdvanceClock moves the virtual clock forward, playing what falls due on the way.
func (e *Emulator) AdvanceClock(d time.Duration) (Clock, error) {
	var clock Clock
	err := e.Do("POST", control+"/clock/advance", map[string]string{"duration": strconv.FormatInt(d.Milliseconds(), 10) + "ms"}, &clock)
	return clock, err
}

// Clock is the emulator's virtual clock.
type Clock struct {
	Now      string `json:"now"`
	OffsetMS int64  `json:"offset_ms"`
	Frozen   bool   `json:"frozen"`
}

// Now is the virtual clock.
func (e *Emulator) Now() (Clock, error) {
	var clock Clock
	err := e.Do("GET", control+"/clock", nil, &clock)
	return clock, err
}

// SetWebhookURL is where the app's webhooks go (the portal's setting); "" removes it. Call it in
// the setup, before tests read WebhookSecret in parallel.
func (e *Emulator) SetWebhookURL(webhookURL string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cookie == "" {
		var app struct {
			AccountID string `json:"account_id"`
		}
		if err := e.Do("GET", control+"/apps/"+e.AppID, nil, &app); err != nil {
			return err
		}
		headers, err := e.call("POST", control+"/portal/login", map[string]string{"account_id": app.AccountID}, nil, nil)
		if err != nil {
			return err
		}
		e.cookie = strings.SplitN(headers.Get("set-cookie"), ";", 2)[0]
	}
	var body interface{} = map[string]interface{}{"webhook_url": nil}
	if webhookURL != "" {
		body = map[string]string{"webhook_url": webhookURL}
	}
	var app struct {
		WebhookSecret string `json:"webhook_secret"`
	}
	if err := e.do("PATCH", "/v1/apps/"+e.AppID, body, &app, map[string]string{"cookie": e.cookie}); err != nil {
		return err
	}
	if app.WebhookSecret != "" {
		e.WebhookSecret = app.WebhookSecret
	}
	return nil
}

func (e *Emulator) webhookSecret() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.WebhookSecret
}
