// Package recipe is a team's backend in miniature: it mints sessions through the service and takes
// the service's webhooks. Its tests, written with scanctltest: go test ./...
package recipe

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"sync"

	"scanctl.local/scanctltest"
)

// App is the team's HTTP handler; it reads SCANCTL_* as it would its production settings.
type App struct {
	mu       sync.Mutex
	Received []string // the event id of each verified delivery
}

func (a *App) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/sessions": // POST {"user"}: mints through the service (the backend's job)
		var in struct{ User string }
		json.NewDecoder(r.Body).Decode(&in)
		body, _ := json.Marshal(map[string]string{"host_user_ref": in.User})
		request, _ := http.NewRequest("POST", os.Getenv("SCANCTL_BASE_URL")+"/v1/sessions", bytes.NewReader(body))
		request.Header.Set("Authorization", "Bearer "+os.Getenv("SCANCTL_SECRET_KEY"))
		request.Header.Set("Content-Type", "application/json")
		answer, err := http.DefaultClient.Do(request)
		if err != nil {
			http.Error(w, err.Error(), 502)
			return
		}
		defer answer.Body.Close()
		w.WriteHeader(answer.StatusCode)
		io.Copy(w, answer.Body)
	case "/webhooks":
		body, _ := io.ReadAll(r.Body) // the raw bytes: verified before parsing
		if !scanctltest.VerifySignature(body, r.Header.Get("Service-Signature"), os.Getenv("SCANCTL_WEBHOOK_SECRET")) {
			w.WriteHeader(400)
			return
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		event, first := r.Header.Get("Service-Event-Id"), true
		for _, seen := range a.Received {
			first = first && seen != event
		}
		a.Received = append(a.Received, event)
		if first { // fails each event's first attempt: every test plays a retry
			w.WriteHeader(500)
			return
		}
		w.WriteHeader(204)
	default:
		http.NotFound(w, r)
	}
}
