package scanctltest

import (
	"fmt"
	"net/url"
	"sort"
	"time"
)

// Attempt is one attempt of a delivery.
type Attempt struct {
	Number    int    `json:"number"`
	URL       string `json:"url"`
	StartedAt string `json:"started_at"`
	Status    int    `json:"status"` // 0 when no answer came (see Error)
	Error     string `json:"error"`
}

// DeliveryLog is one delivery of a scan with its attempts, as SimulateScan reports it.
type DeliveryLog struct {
	DeliveryID string    `json:"delivery_id"`
	EventID    string    `json:"event_id"` // equals the Service-Event-Id header
	EventType  string    `json:"event_type"`
	ScanID     string    `json:"scan_id"`
	Status     string    `json:"status"`
	Attempts   []Attempt `json:"attempts"`
}

// Statuses are the attempts' HTTP statuses, first to last ([500, 204]).
func (d DeliveryLog) Statuses() []int { return statuses(d.Attempts) }

// ClockMove is one move of the virtual clock that PlayRetries made.
type ClockMove struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Played int    `json:"played"`
}

// Scan is the simulated scan, as `scanctl scan simulate --json` prints it.
type Scan struct {
	ScanID      string `json:"scan_id"` // "" when a refusal stopped it before it was reported
	HostUserRef string `json:"host_user_ref"`
	Outcome     string `json:"outcome"`
	State       string `json:"state"` // recorded or refused
	Result      string `json:"result"`
	OccurredAt  string `json:"occurred_at"`
}

// ScanRun is what SimulateScan returns.
type ScanRun struct {
	Scan       Scan
	Deliveries []DeliveryLog // with the wait: each delivery of the scan with its attempts
	OK         bool          // every delivery acknowledged (true without the wait)
	Reason     string        // when not OK: failed, unmet, timeout
	ClockMoves []ClockMove
}

type scanSettings struct {
	Outcome     string `json:"outcome"`
	Wait        bool   `json:"wait"`
	PlayRetries bool   `json:"play_retries"`
	TimeoutMS   int64  `json:"timeout_ms"`
}

// ScanOption is an option of SimulateScan.
type ScanOption func(*scanSettings)

// PlayRetries moves the virtual clock to each retry once it is due, no further: a retried webhook
// without sleeping.
func PlayRetries() ScanOption { return func(s *scanSettings) { s.PlayRetries = true } }

// Outcome is how the scan ends: completed (the default), failed, ...
func Outcome(outcome string) ScanOption { return func(s *scanSettings) { s.Outcome = outcome } }

// NoWait answers once the scan is recorded, without waiting for its deliveries.
func NoWait() ScanOption { return func(s *scanSettings) { s.Wait = false } }

// WaitTimeout is the real time the wait may take (default 10 s).
func WaitTimeout(d time.Duration) ScanOption {
	return func(s *scanSettings) { s.TimeoutMS = d.Milliseconds() }
}

// SimulateScan plays one scan of user as the SDK does (POST /_scanctl/apps/{app_id}/scans/simulate);
// by default it returns once the scan's deliveries are acknowledged, or cannot be.
func (e *Emulator) SimulateScan(user string, options ...ScanOption) (ScanRun, error) {
	settings := scanSettings{Outcome: "completed", Wait: true, TimeoutMS: 10_000}
	for _, option := range options {
		option(&settings)
	}
	body := struct {
		HostUserRef string `json:"host_user_ref"`
		scanSettings
	}{user, settings}
	var answer struct {
		Scan Scan `json:"scan"`
		Wait *struct {
			OK         bool          `json:"ok"`
			Reason     string        `json:"reason"`
			Log        []DeliveryLog `json:"log"`
			ClockMoves []ClockMove   `json:"clock_moves"`
		} `json:"wait"`
	}
	if err := e.Do("POST", control+"/apps/"+url.PathEscape(e.AppID)+"/scans/simulate", body, &answer); err != nil {
		return ScanRun{}, err
	}
	run := ScanRun{Scan: answer.Scan, OK: true}
	if answer.Wait != nil {
		run.OK, run.Reason, run.Deliveries, run.ClockMoves = answer.Wait.OK, answer.Wait.Reason, answer.Wait.Log, answer.Wait.ClockMoves
	}
	return run, nil
}

// Delivery is one webhook delivery as the control plane lists it; WaitForDeliveries adds its
// AttemptLog and Request.
type Delivery struct {
	ID            string    `json:"id"`
	EventID       string    `json:"event_id"`
	EventType     string    `json:"event_type"`
	ScanID        string    `json:"scan_id"`
	HostUserRef   string    `json:"host_user_ref"`
	Status        string    `json:"status"` // pending, in_flight, succeeded, failed, cancelled
	Attempts      int       `json:"attempts"`
	NextAttemptAt string    `json:"next_attempt_at"`
	AttemptLog    []Attempt `json:"attempt_log"`
	Request       struct {
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
		Body    string            `json:"body"` // the exact bytes signed and sent
	} `json:"request"`
}

// Statuses are the statuses of AttemptLog, first to last.
func (d Delivery) Statuses() []int { return statuses(d.AttemptLog) }

// Filter picks deliveries: any field left "" matches all.
type Filter struct {
	ScanID, EventID, HostUserRef, Status string
}

// Deliveries are the app's deliveries, newest first.
func (e *Emulator) Deliveries(f Filter) ([]Delivery, error) {
	query := url.Values{"app_id": {e.AppID}, "limit": {"1000"}}
	for name, value := range map[string]string{"scan_id": f.ScanID, "event_id": f.EventID, "host_user_ref": f.HostUserRef, "status": f.Status} {
		if value != "" {
			query.Set(name, value)
		}
	}
	var list struct{ Data []Delivery }
	err := e.Do("GET", control+"/webhooks/deliveries?"+query.Encode(), nil, &list)
	return list.Data, err
}

// Wait is what WaitForDeliveries waits for.
type Wait struct {
	Filter
	Until       string        // attempted, acknowledged (the default), exhausted, settled
	Count       int           // at least this many deliveries (default 1)
	PlayRetries bool          // move the clock to each retry once the failed attempt before it is recorded
	Timeout     time.Duration // real time (default 10 s)
}

var reached = map[string]func(Delivery) bool{
	"attempted":    func(d Delivery) bool { return d.Attempts >= 1 },
	"acknowledged": func(d Delivery) bool { return d.Status == "succeeded" },
	"exhausted":    func(d Delivery) bool { return d.Status == "failed" },
	"settled":      func(d Delivery) bool { return ended(d.Status) },
}

func ended(status string) bool {
	return status == "succeeded" || status == "failed" || status == "cancelled"
}

// WaitForDeliveries waits until at least w.Count matching deliveries exist and each reached
// w.Until; returns them with their attempt logs. An error when one can no longer get there, or
// after w.Timeout.
func (e *Emulator) WaitForDeliveries(w Wait) ([]Delivery, error) {
	if w.Until == "" {
		w.Until = "acknowledged"
	}
	if w.Count == 0 {
		w.Count = 1
	}
	if w.Timeout == 0 {
		w.Timeout = 10 * time.Second
	}
	done, known := reached[w.Until]
	if !known {
		return nil, fmt.Errorf("until %q: one of attempted, acknowledged, exhausted, settled", w.Until)
	}
	deadline := time.Now().Add(w.Timeout)
	for {
		found, err := e.Deliveries(w.Filter)
		if err != nil {
			return nil, err
		}
		all := len(found) >= w.Count
		for _, d := range found {
			if !done(d) {
				all = false
				if ended(d.Status) {
					return nil, fmt.Errorf("delivery %s ended %s after %d attempts: it can no longer be %s", d.ID, d.Status, d.Attempts, w.Until)
				}
			}
		}
		if all {
			details := make([]Delivery, len(found))
			for i, d := range found {
				if err := e.Do("GET", control+"/webhooks/deliveries/"+url.PathEscape(d.ID), nil, &details[i]); err != nil {
					return nil, err
				}
			}
			return details, nil
		}
		if w.PlayRetries {
			played, err := e.playNextRetry(found)
			if err != nil {
				return nil, err
			}
			if played {
				continue
			}
		}
		if time.Now().After(deadline) {
			states := ""
			for _, d := range found {
				states += " " + d.ID + ":" + d.Status
			}
			return nil, fmt.Errorf("timed out after %s waiting for %d deliveries to be %s:%s", w.Timeout, w.Count, w.Until, states)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (e *Emulator) playNextRetry(found []Delivery) (bool, error) {
	var due []string
	for _, d := range found {
		if d.Status == "pending" && d.Attempts > 0 && d.NextAttemptAt != "" {
			due = append(due, d.NextAttemptAt)
		}
	}
	if len(due) == 0 {
		return false, nil
	}
	sort.Strings(due)
	clock, err := e.Now()
	if err != nil {
		return false, err
	}
	if due[0] <= clock.Now {
		return false, nil
	}
	err = e.Do("POST", control+"/clock/set", map[string]string{"time": due[0]}, nil)
	if apiErr, ok := err.(*APIError); ok && apiErr.Status == 400 {
		return false, nil // the clock moved past it meanwhile
	}
	return err == nil, err
}

func statuses(attempts []Attempt) []int {
	out := make([]int, len(attempts))
	for i, a := range attempts {
		out[i] = a.Status
	}
	return out
}
