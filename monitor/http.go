package monitor

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"time"
)

//go:embed web
var webFiles embed.FS

// Web returns the files of the web page (index.html, app.js, style.css).
func Web() fs.FS {
	sub, err := fs.Sub(webFiles, "web")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return sub
}

// Handler returns the monitor's HTTP handler:
//
//	GET /            the web page (and its app.js and style.css)
//	GET /api/state   the Snapshot as JSON
func (m *Monitor) Handler() http.Handler {
	return NewHandler(m.State)
}

// NewHandler returns the HTTP handler of the web page for any source of snapshots, for
// programs that build the state themselves.
func NewHandler(state func() Snapshot) http.Handler {
	mux := http.NewServeMux()
	files := http.FileServerFS(Web())
	mux.Handle("GET /", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	}))
	mux.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		b, err := json.Marshal(state())
		if err != nil {
			http.Error(w, "monitor: encoding the state: "+err.Error(), http.StatusInternalServerError)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", "no-store")
		_, _ = w.Write(append(b, '\n'))
	})
	return mux
}

// Serve serves h on ln until ctx is done, then shuts the server down (waiting up to a
// second for requests in flight) and returns nil; it returns other server errors.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       time.Minute,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
