// Command ferretdb runs an embedded FerretDB v1 (MongoDB wire protocol over PostgreSQL or
// SQLite) for local development and tests when no MongoDB is available.
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
	handler := flag.String("handler", "postgresql", "backend handler: postgresql or sqlite")
	postgresqlURL := flag.String("postgresql-url", "postgres://127.0.0.1:5432/ferretdb", "PostgreSQL connection URL")
	sqliteURL := flag.String("sqlite-url", "file:data/", "SQLite directory URI, e.g. file:/abs/dir/?_pragma=synchronous(normal)")
	logLevel := flag.String("log-level", "warn", "log level: debug, info, warn or error")
	flag.Parse()

	if *handler != "sqlite" && *handler != "postgresql" {
		fail(2, "unsupported --handler %q (postgresql or sqlite)", *handler)
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fail(2, "invalid --log-level %q", *logLevel)
	}
	logger := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	config := &ferretdb.Config{
		Listener: ferretdb.ListenerConfig{TCP: *listen},
		Handler:  *handler,
		Logger:   logger,
	}
	if *handler == "postgresql" {
		if err := preparePostgreSQL(context.Background(), *postgresqlURL); err != nil {
			fail(1, "preparing PostgreSQL: %v", err)
		}
		config.PostgreSQLURL = *postgresqlURL
	} else {
		dir, err := sqliteDir(*sqliteURL)
		if err != nil {
			fail(1, "%v", err)
		}
		config.SQLiteURL = dir
	}

	f, err := ferretdb.New(config)
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

// sqliteDir creates the SQLite backend's directory and returns the URI it wants: a path that
// ends in a slash, with any query (e.g. ?_pragma=synchronous(normal)) passed on as it is.
func sqliteDir(uri string) (string, error) {
	path, query, _ := strings.Cut(uri, "?")
	if query != "" {
		query = "?" + query
	}
	dir := strings.TrimSuffix(strings.TrimPrefix(path, "file:"), "/")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("cannot create data directory %s: %w", dir, err)
	}
	return "file:" + dir + "/" + query, nil
}
