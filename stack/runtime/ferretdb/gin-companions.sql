-- FerretDB v1 on PostgreSQL pushes an equality filter down as `_jsonb->'f' @> v` and indexes a
-- field with a btree on `(_jsonb->'f')`, which `@>` cannot use: every filtered query scans.
-- This gives each btree index FerretDB creates a GIN companion over the same expressions
-- (jsonb_path_ops serves `@>`), inside the same transaction, so a declared index serves its
-- equality filters from the moment createIndexes returns. Idempotent; run at every start.

CREATE OR REPLACE FUNCTION public.ferretdb_gin_companion(idx oid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  i record;
  cols text[] := '{}';
  k int;
BEGIN
  SELECT c.relname AS name, n.nspname AS schema, t.relname AS tbl, am.amname AS method,
         x.indnkeyatts AS natts, x.indrelid AS rel
    INTO i
    FROM pg_index x
    JOIN pg_class c ON c.oid = x.indexrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_am am ON am.oid = c.relam
   WHERE x.indexrelid = idx;
  IF NOT FOUND OR i.method <> 'btree' THEN RETURN; END IF;
  -- Only FerretDB's collection tables, which keep each document in a `_jsonb` column.
  IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = i.rel AND attname = '_jsonb' AND NOT attisdropped) THEN
    RETURN;
  END IF;
  FOR k IN 1..i.natts LOOP
    cols := cols || ('(' || pg_get_indexdef(idx, k, true) || ') jsonb_path_ops');
  END LOOP;
  -- fastupdate off: entries go into the index at once, so a lookup never scans a pending list
  -- that grows with every insert since the last vacuum.
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I.%I USING gin (%s) WITH (fastupdate = off)',
                 left(i.name, 59) || '_gin', i.schema, i.tbl, array_to_string(cols, ', '));
END $$;

CREATE OR REPLACE FUNCTION public.ferretdb_gin_on_create() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
  cmd record;
BEGIN
  FOR cmd IN SELECT objid FROM pg_event_trigger_ddl_commands()
              WHERE command_tag = 'CREATE INDEX' AND object_type = 'index' LOOP
    PERFORM public.ferretdb_gin_companion(cmd.objid);
  END LOOP;
END $$;

CREATE OR REPLACE FUNCTION public.ferretdb_gin_on_drop() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
  obj record;
BEGIN
  FOR obj IN SELECT schema_name, object_name FROM pg_event_trigger_dropped_objects()
              WHERE object_type = 'index' AND original AND object_name NOT LIKE '%\_gin' LOOP
    EXECUTE format('DROP INDEX IF EXISTS %I.%I', obj.schema_name, left(obj.object_name, 59) || '_gin');
  END LOOP;
END $$;

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_event_trigger WHERE evtname = 'ferretdb_gin_on_create') THEN
    CREATE EVENT TRIGGER ferretdb_gin_on_create ON ddl_command_end WHEN TAG IN ('CREATE INDEX')
      EXECUTE FUNCTION public.ferretdb_gin_on_create();
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_event_trigger WHERE evtname = 'ferretdb_gin_on_drop') THEN
    CREATE EVENT TRIGGER ferretdb_gin_on_drop ON sql_drop WHEN TAG IN ('DROP INDEX')
      EXECUTE FUNCTION public.ferretdb_gin_on_drop();
  END IF;
END $$;

-- Indexes made before this ran (an older data directory) get their companions too.
SELECT public.ferretdb_gin_companion(x.indexrelid)
  FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_am am ON am.oid = c.relam
 WHERE am.amname = 'btree'
   AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = x.indrelid AND a.attname = '_jsonb');
