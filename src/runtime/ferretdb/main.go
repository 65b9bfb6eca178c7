// Command ferretdb runs an embedded FerretDB v1 (MongoDB wire protocol over SQLite)
// for local development and tests when no MongoDB is available.
//
// FerretDB's own cmd/ferretdb cannot be built with `go install` (it needs a generated
// version file), so the project builds this tiny main over the embeddable package.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "ferretdb: "+format+"\n", args...)
	os.Exit(code)
}

func main() {
	// Flag names match FerretDB's own binary, so either can be used interchangeably.
	listen := flag.String("listen-addr", "127.0.0.1:27017", "TCP address to listen on")
	handler := flag.String("handler", "sqlite", "backend handler; only sqlite is built in")
	sqliteURL := flag.String("sqlite-url", "file:data/", "SQLite directory URI, e.g. file:/abs/dir/?_pragma=synchronous(normal)")
	logLevel := flag.String("log-level", "warn", "log level: debug, info, warn or error")
	flag.Parse()

	if *handler != "sqlite" {
		fail(2, "unsupported --handler %q (this build has sqlite only)", *handler)
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fail(2, "invalid --log-level %q", *logLevel)
	}
	logger := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	// The SQLite backend wants an existing directory and a URI whose path ends in a slash;
	// a query (e.g. ?_pragma=synchronous(normal)) is passed on as it is.
	path, query, _ := strings.Cut(*sqliteURL, "?")
	if query != "" {
		query = "?" + query
	}
	dir := strings.TrimSuffix(strings.TrimPrefix(path, "file:"), "/")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fail(1, "cannot create data directory %s: %v", dir, err)
	}

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Handler:   "sqlite",
		SQLiteURL: "file:" + dir + "/" + query,
		Logger:    logger,
	})
	if err != nil {
		fail(1, "%v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	fmt.Printf("ferretdb listening on %s\n", f.MongoDBURI())
	if err := f.Run(ctx); err != nil {
		fail(1, "%v", err)
	}
}
