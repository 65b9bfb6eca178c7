package main

import (
	"fmt"

	"go.temporal.io/server/common/log"
	_ "go.temporal.io/server/common/persistence/sql/sqlplugin/postgresql" // registers postgres12
	"go.temporal.io/server/tools/common/schema"
	sqltool "go.temporal.io/server/tools/sql"
)

// The server's embedded schema directories (go.temporal.io/server/schema), as temporal-sql-tool's
// --schema-name takes them.
const (
	workflowSchema   = "postgresql/v12/temporal"
	visibilitySchema = "postgresql/v12/visibility"
)

// setupSchema does what `temporal-sql-tool create-database`, `setup-schema -v 0.0` and
// `update-schema --schema-name …` do for both databases, and is safe to repeat: the database
// and version tables are created only if missing, the version is set to 0.0 only when unset,
// and the update applies only the versions above the one recorded.
func setupSchema(db *dbFlags, logger log.Logger) error {
	for _, target := range []struct{ database, schemaName string }{
		{db.database, workflowSchema},
		{db.visibilityDatabase, visibilitySchema},
	} {
		if err := sqltool.DoCreateDatabase(db.sql(target.database, 1), "postgres", logger); err != nil {
			return fmt.Errorf("create database %s: %w", target.database, err)
		}
		conn, err := sqltool.NewConnection(db.sql(target.database, 1), logger)
		if err != nil {
			return fmt.Errorf("connect to database %s: %w", target.database, err)
		}
		err = schema.NewSetupSchemaTask(conn, &schema.SetupConfig{InitialVersion: "0.0"}, logger).Run()
		if err == nil {
			err = schema.NewUpdateSchemaTask(conn, &schema.UpdateConfig{DBName: target.database, SchemaName: target.schemaName}, logger).Run()
		}
		conn.Close()
		if err != nil {
			return fmt.Errorf("schema %s in database %s: %w", target.schemaName, target.database, err)
		}
	}
	return nil
}
