package main

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

//go:embed gin-companions.sql
var ginCompanionsSQL string

// preparePostgreSQL readies the database FerretDB will use, before FerretDB connects:
//   - the database itself, when missing;
//   - GIN companions for FerretDB's btree indexes (gin-companions.sql says why);
//   - custom plans always: FerretDB passes the field name as a parameter (`_jsonb->$1`), and
//     only a plan made with the value known matches an index on `(_jsonb->'field')`.
func preparePostgreSQL(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	// PostgreSQL may still be starting (both are started at once, and restarted on their own).
	var conn *pgx.Conn
	var err error
	for conn, err = connectCreating(ctx, url); err != nil; conn, err = connectCreating(ctx, url) {
		select {
		case <-ctx.Done():
			return fmt.Errorf("PostgreSQL at %s did not answer: %w", url, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
	defer conn.Close(ctx)

	if _, err := conn.Exec(ctx, ginCompanionsSQL); err != nil {
		return fmt.Errorf("installing GIN companion indexes: %w", err)
	}
	var db string
	if err := conn.QueryRow(ctx, "SELECT current_database()").Scan(&db); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s SET plan_cache_mode = force_custom_plan", pgx.Identifier{db}.Sanitize())); err != nil {
		return fmt.Errorf("setting plan_cache_mode: %w", err)
	}
	return nil
}

// connectCreating connects to the database of url, creating it first when it does not exist
// (asked of the `postgres` database, so the server logs no failed connection).
func connectCreating(ctx context.Context, url string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	name := cfg.Database
	cfg.Database = "postgres"
	admin, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer admin.Close(ctx)
	var exists bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return nil, err
	}
	if !exists {
		if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
			return nil, fmt.Errorf("creating database %s: %w", name, err)
		}
	}
	return pgx.Connect(ctx, url)
}
