package scanctltest

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Where names the four ways scanctl is found, in order.
const Where = "SCANCTL_BASE_URL (a running emulator), SCANCTL_BIN (the scanctl executable), scanctl on PATH, or node_modules/.bin/scanctl"

// ErrNotFound is what Find and New return (wrapped) when none of the four ways gave a scanctl.
var ErrNotFound = errors.New("scanctl not found")

// Find is the scanctl executable to start: SCANCTL_BIN, else scanctl on PATH, else
// node_modules/.bin/scanctl in dir or a folder above it ("" for the working folder).
// (SCANCTL_BASE_URL, checked by New, starts nothing.)
func Find(dir string) (string, error) {
	if named := os.Getenv("SCANCTL_BIN"); named != "" {
		if info, err := os.Stat(named); err != nil || info.IsDir() || info.Mode()&0o111 == 0 {
			return "", fmt.Errorf("%w: SCANCTL_BIN=%s is not an executable file. scanctl is found through %s", ErrNotFound, named, Where)
		}
		return named, nil
	}
	if onPath, err := exec.LookPath("scanctl"); err == nil {
		return onPath, nil
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	for folder, _ := filepath.Abs(dir); ; {
		candidate := filepath.Join(folder, "node_modules", ".bin", "scanctl")
		if info, err := os.Stat(candidate); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return candidate, nil
		}
		parent := filepath.Dir(folder)
		if parent == folder {
			break
		}
		folder = parent
	}
	return "", fmt.Errorf("%w: set SCANCTL_BASE_URL to a running emulator, or SCANCTL_BIN to the scanctl executable, "+
		"or put scanctl on PATH, or install it into node_modules/.bin/scanctl (npm install scanctl). Tried %s", ErrNotFound, Where)
}

// readyLine is the one JSON line serve --json prints once it listens.
type readyLine struct {
	Object             string            `json:"object"`
	BaseURL            string            `json:"base_url"`
	AppID              string            `json:"app_id"`
	TestSecretKey      string            `json:"test_secret_key"`
	TestPublishableKey string            `json:"test_publishable_key"`
	Env                map[string]string `json:"env"`
}

// process is serve in its own process group and temporary folder (its .scanctl/serve.json goes
// there); its stdin is a pipe only this process holds, so serve stops by itself if we die.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	folder string
	stderr *os.File
	done   chan struct{}
	once   sync.Once
}

func startProcess(command string, args []string, timeout time.Duration) (*process, readyLine, error) {
	var ready readyLine
	folder, err := os.MkdirTemp("", "scanctl-")
	if err != nil {
		return nil, ready, err
	}
	stderr, err := os.Create(filepath.Join(folder, "stderr.log"))
	if err != nil {
		os.RemoveAll(folder)
		return nil, ready, err
	}
	argv := append([]string{"serve", "--port", "0", "--json", "--stop-on-stdin-close"}, args...)
	shown := command + " " + strings.Join(argv, " ")
	cmd := exec.Command(command, argv...)
	cmd.Dir = folder
	cmd.Stderr = stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &process{cmd: cmd, folder: folder, stderr: stderr, done: make(chan struct{})}
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		p.cleanup()
		return nil, ready, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		p.cleanup()
		return nil, ready, err
	}
	if err := cmd.Start(); err != nil {
		p.cleanup()
		return nil, ready, fmt.Errorf("cannot start %s: %w", command, err)
	}
	lines := make(chan []byte, 1)
	go func() { // the ready line, then whatever else serve prints, so its stdout never fills up
		reader := bufio.NewReader(stdout)
		line, err := reader.ReadBytes('\n')
		if err != nil && len(line) == 0 {
			line = nil
		}
		lines <- line
		io.Copy(io.Discard, reader)
		cmd.Wait()
		close(p.done)
	}()
	select {
	case line := <-lines:
		if line == nil {
			<-p.done
			message := fmt.Sprintf("%s exited %d before it was ready: %s", shown, cmd.ProcessState.ExitCode(), p.stderrText())
			p.stop()
			return nil, ready, errors.New(message)
		}
		if err := json.Unmarshal(line, &ready); err != nil || ready.Object != "serve_ready" {
			p.stop()
			return nil, ready, fmt.Errorf("%s printed %.200q, not its JSON ready line", shown, line)
		}
		return p, ready, nil
	case <-time.After(timeout):
		message := fmt.Sprintf("%s printed no ready line within %s: %s", shown, timeout, p.stderrText())
		p.stop()
		return nil, ready, errors.New(message)
	}
}

func (p *process) stderrText() string {
	data, _ := os.ReadFile(p.stderr.Name())
	if len(data) > 2000 {
		data = data[len(data)-2000:]
	}
	if text := strings.TrimSpace(string(data)); text != "" {
		return text
	}
	return "(nothing on stderr)"
}

// stop sends SIGTERM to the whole group, SIGKILL after 10 s, and removes the folder. Safe to call twice.
func (p *process) stop() {
	p.once.Do(func() {
		group := -p.cmd.Process.Pid
	signals:
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
			syscall.Kill(group, sig)
			select {
			case <-p.done:
				break signals
			case <-time.After(10 * time.Second):
			}
		}
		p.stdin.Close()
		// The group, once more: a child serve started itself would be in it too.
		syscall.Kill(group, syscall.SIGKILL)
		p.cleanup()
	})
}

func (p *process) cleanup() {
	p.stderr.Close()
	os.RemoveAll(p.folder)
}
