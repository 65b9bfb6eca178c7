// Command temporal-node runs one node of a Temporal cluster on PostgreSQL: the frontend,
// history, matching and worker services of go.temporal.io/server in one process, with ringpop
// membership so that several nodes on the same database form one cluster. It also sets up the
// database schema from the server's embedded schema files (what temporal-sql-tool does), and
// describes a running cluster (shard count and ring members) through the admin service.
//
//	temporal-node setup-schema --db-port 5432
//	temporal-node start --setup-schema --db-port 5432 --frontend-port 7233 --port-base 7240
//	temporal-node describe --address 127.0.0.1:7233
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	uiserver "github.com/temporalio/ui-server/v2/server"
	uiconfig "github.com/temporalio/ui-server/v2/server/config"
	uiserveroptions "github.com/temporalio/ui-server/v2/server/server_options"
	"go.temporal.io/server/api/adminservice/v1"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/log"
	"go.temporal.io/server/temporal"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "setup-schema":
		err = runSetupSchema(os.Args[2:])
	case "start":
		err = runStart(os.Args[2:])
	case "describe":
		err = runDescribe(os.Args[2:])
	case "ui":
		err = runUI(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "temporal-node %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: temporal-node setup-schema|start|describe|ui [flags] (-h for the flags)")
	os.Exit(2)
}

// dbFlags are the PostgreSQL connection settings every subcommand that touches the database shares.
type dbFlags struct {
	host, user, password, database, visibilityDatabase string
	port, maxConns, visibilityMaxConns                 int
}

func (d *dbFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&d.host, "db-host", "127.0.0.1", "PostgreSQL host")
	fs.IntVar(&d.port, "db-port", 5432, "PostgreSQL port")
	fs.StringVar(&d.user, "db-user", "postgres", "PostgreSQL user")
	fs.StringVar(&d.password, "db-password", os.Getenv("TEMPORAL_DB_PASSWORD"), "PostgreSQL password (default: $TEMPORAL_DB_PASSWORD)")
	fs.StringVar(&d.database, "db-name", "temporal", "database of the workflow data")
	fs.StringVar(&d.visibilityDatabase, "visibility-db-name", "temporal_visibility", "database of the visibility records")
	// Each of the four services of a node has its own pool: a node may open 4 × (both maxima).
	fs.IntVar(&d.maxConns, "db-max-conns", 20, "connections per service to the workflow database")
	fs.IntVar(&d.visibilityMaxConns, "visibility-db-max-conns", 5, "connections per service to the visibility database")
}

func (d *dbFlags) sql(database string, maxConns int) *config.SQL {
	return &config.SQL{
		PluginName:      "postgres12",
		DatabaseName:    database,
		ConnectAddr:     net.JoinHostPort(d.host, strconv.Itoa(d.port)),
		ConnectProtocol: "tcp",
		User:            d.user,
		Password:        d.password,
		MaxConns:        maxConns,
		MaxIdleConns:    maxConns,
		MaxConnLifetime: time.Hour,
	}
}

func runSetupSchema(args []string) error {
	fs := flag.NewFlagSet("setup-schema", flag.ExitOnError)
	var db dbFlags
	db.register(fs)
	_ = fs.Parse(args)
	return setupSchema(&db, newLogger("warn"))
}

// startFlags are a node's own settings.
type startFlags struct {
	db                             dbFlags
	shards                         int
	ip                             string
	frontendPort, frontendHTTPPort int
	portBase                       int
	clusterName, clusterAddress    string
	logLevel                       string
	setupSchema                    bool
	dynamic                        multiFlag
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// Ports a node takes from --port-base, in this order; ringpop's membership ports are stored as
// PostgreSQL smallint (cluster_membership.rpc_port), so they must stay below 32768.
const (
	offFrontendMembership = iota
	offHistoryGRPC
	offHistoryMembership
	offMatchingGRPC
	offMatchingMembership
	offWorkerGRPC
	offWorkerMembership
	portsPerNode
)

func runStart(args []string) error {
	fs := flag.NewFlagSet("start", flag.ExitOnError)
	var s startFlags
	s.db.register(fs)
	fs.IntVar(&s.shards, "shards", 8, "history shards; fixed when the database is first set up (a later value is ignored by the server)")
	fs.StringVar(&s.ip, "ip", "127.0.0.1", "address every service binds to and announces to the other nodes")
	fs.IntVar(&s.frontendPort, "frontend-port", 7233, "frontend gRPC port (clients connect here)")
	fs.IntVar(&s.frontendHTTPPort, "frontend-http-port", 0, "frontend HTTP API port (0: none)")
	fs.IntVar(&s.portBase, "port-base", 7240, fmt.Sprintf("first of the %d internal ports (membership and internal gRPC), all below 32768", portsPerNode))
	fs.StringVar(&s.clusterName, "cluster-name", "active", "cluster name")
	fs.StringVar(&s.clusterAddress, "cluster-address", "", "the cluster's frontend address recorded in its metadata; give every node the same (default: this node's frontend)")
	fs.StringVar(&s.logLevel, "log-level", "warn", "debug, info, warn or error")
	fs.BoolVar(&s.setupSchema, "setup-schema", false, "create the databases and apply schema updates before starting (idempotent)")
	fs.Var(&s.dynamic, "dynamic-config-value", "KEY=JSON dynamic config value (repeatable)")
	_ = fs.Parse(args)
	if s.portBase <= 0 || s.portBase+portsPerNode > 32768 {
		return fmt.Errorf("--port-base %d: the %d internal ports must lie in 1..32767 (membership ports are stored as smallint)", s.portBase, portsPerNode)
	}
	if s.shards < 1 {
		return fmt.Errorf("--shards must be at least 1")
	}
	logger := newLogger(s.logLevel)
	if s.setupSchema {
		if err := setupSchema(&s.db, logger); err != nil {
			return err
		}
	}
	dynamic, err := dynamicValues(s.dynamic)
	if err != nil {
		return err
	}
	server, err := temporal.NewServer(
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithConfig(s.serverConfig()),
		temporal.WithDynamicConfigClient(dynamic),
		temporal.WithLogger(logger),
	)
	if err != nil {
		return fmt.Errorf("create server: %w", err)
	}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	if err := server.Start(); err != nil {
		return fmt.Errorf("start server: %w", err)
	}
	// One line the launcher can wait for (it also probes the frontend).
	fmt.Printf("temporal-node: node serving frontend %s:%d (%d shards requested)\n", s.ip, s.frontendPort, s.shards)
	<-signals
	return server.Stop()
}

// runUI serves the Temporal Web UI as a process of its own, so that it outlives any one node.
func runUI(args []string) error {
	fs := flag.NewFlagSet("ui", flag.ExitOnError)
	ip := fs.String("ip", "127.0.0.1", "address the UI listens on")
	port := fs.Int("port", 8233, "the UI's HTTP port")
	frontend := fs.String("frontend-address", "127.0.0.1:7233", "the frontend the UI talks to, e.g. a balancer in front of every node's")
	_ = fs.Parse(args)
	ui := uiserver.NewServer(uiserveroptions.WithConfigProvider(&uiconfig.Config{
		Host:                *ip,
		Port:                *port,
		TemporalGRPCAddress: *frontend,
		EnableUI:            true,
		CORS:                uiconfig.CORS{CookieInsecure: true},
		HideLogs:            true,
	}))
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	failed := make(chan error, 1)
	go func() { failed <- ui.Start() }()
	fmt.Printf("temporal-node: UI serving http://%s:%d against %s\n", *ip, *port, *frontend)
	select {
	case err := <-failed:
		if err != nil && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("UI server: %w", err)
		}
		return nil
	case <-signals:
		ui.Stop()
		return nil
	}
}

func (s *startFlags) serverConfig() *config.Config {
	var conf config.Config
	conf.Log = log.Config{Stdout: true, Level: s.logLevel, Format: "json"}
	conf.Global.Membership.MaxJoinDuration = 30 * time.Second
	conf.Global.Membership.BroadcastAddress = s.ip
	conf.Persistence.DefaultStore = "postgres-default"
	conf.Persistence.VisibilityStore = "postgres-visibility"
	conf.Persistence.NumHistoryShards = int32(s.shards)
	conf.Persistence.DataStores = map[string]config.DataStore{
		"postgres-default":    {SQL: s.db.sql(s.db.database, s.db.maxConns)},
		"postgres-visibility": {SQL: s.db.sql(s.db.visibilityDatabase, s.db.visibilityMaxConns)},
	}
	address := s.clusterAddress
	if address == "" {
		address = net.JoinHostPort(s.ip, strconv.Itoa(s.frontendPort))
	}
	conf.ClusterMetadata = &cluster.Config{
		EnableGlobalNamespace:    false,
		FailoverVersionIncrement: 10,
		MasterClusterName:        s.clusterName,
		CurrentClusterName:       s.clusterName,
		ClusterInformation: map[string]cluster.ClusterInformation{
			s.clusterName: {Enabled: true, InitialFailoverVersion: 1, RPCAddress: address},
		},
	}
	conf.DCRedirectionPolicy.Policy = "noop"
	service := func(grpcPort, membershipPort, httpPort int) config.Service {
		return config.Service{RPC: config.RPC{GRPCPort: grpcPort, MembershipPort: membershipPort, BindOnIP: s.ip, HTTPPort: httpPort}}
	}
	b := s.portBase
	conf.Services = map[string]config.Service{
		"frontend": service(s.frontendPort, b+offFrontendMembership, s.frontendHTTPPort),
		"history":  service(b+offHistoryGRPC, b+offHistoryMembership, 0),
		"matching": service(b+offMatchingGRPC, b+offMatchingMembership, 0),
		"worker":   service(b+offWorkerGRPC, b+offWorkerMembership, 0),
	}
	conf.Archival.History.State = "disabled"
	conf.Archival.Visibility.State = "disabled"
	conf.NamespaceDefaults.Archival.History.State = "disabled"
	conf.NamespaceDefaults.Archival.Visibility.State = "disabled"
	// PublicClient stays empty: the worker service reaches a frontend through membership, so
	// it keeps working while another node's frontend is down.
	return &conf
}

// dynamicValues parses KEY=JSON pairs into a static dynamic config client.
func dynamicValues(pairs []string) (dynamicconfig.StaticClient, error) {
	values := dynamicconfig.StaticClient{
		// The dev server's figure: the default cache is sized for far larger hosts' memory.
		dynamicconfig.HistoryCacheHostLevelMaxSize.Key(): 8096,
	}
	for _, pair := range pairs {
		key, raw, ok := strings.Cut(pair, "=")
		if !ok {
			return nil, fmt.Errorf("--dynamic-config-value %q: want KEY=JSON", pair)
		}
		dec := json.NewDecoder(strings.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("--dynamic-config-value %q: %w", pair, err)
		}
		// Dynamic config reads integers as int, not JSON's float.
		if n, isNum := v.(json.Number); isNum {
			if i, err := n.Int64(); err == nil {
				v = int(i)
			} else if f, err := n.Float64(); err == nil {
				v = f
			}
		}
		values[dynamicconfig.Key(key)] = v
	}
	return values, nil
}

func newLogger(level string) log.Logger {
	return log.NewZapLogger(log.BuildZapLogger(log.Config{Stdout: true, Level: level, Format: "json"}))
}

// describeOutput is what `describe` prints: the cluster as its admin service reports it.
type describeOutput struct {
	ClusterName       string              `json:"clusterName"`
	ServerVersion     string              `json:"serverVersion"`
	HistoryShardCount int32               `json:"historyShardCount"`
	PersistenceStore  string              `json:"persistenceStore"`
	VisibilityStore   string              `json:"visibilityStore"`
	CurrentHost       string              `json:"currentHost"`
	ReachableMembers  []string            `json:"reachableMembers"`
	Rings             map[string][]string `json:"rings"`
	// HistoryShards maps each history member to the shards it owns now.
	HistoryShards map[string][]int32 `json:"historyShards"`
}

func runDescribe(args []string) error {
	fs := flag.NewFlagSet("describe", flag.ExitOnError)
	address := fs.String("address", "127.0.0.1:7233", "a frontend's gRPC address")
	timeout := fs.Duration("timeout", 10*time.Second, "how long to wait for an answer")
	_ = fs.Parse(args)
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	conn, err := grpc.NewClient(*address, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	resp, err := adminservice.NewAdminServiceClient(conn).DescribeCluster(ctx, &adminservice.DescribeClusterRequest{})
	if err != nil {
		return fmt.Errorf("DescribeCluster at %s: %w", *address, err)
	}
	out := describeOutput{
		ClusterName:       resp.GetClusterName(),
		ServerVersion:     resp.GetServerVersion(),
		HistoryShardCount: resp.GetHistoryShardCount(),
		PersistenceStore:  resp.GetPersistenceStore(),
		VisibilityStore:   resp.GetVisibilityStore(),
		CurrentHost:       resp.GetMembershipInfo().GetCurrentHost().GetIdentity(),
		ReachableMembers:  resp.GetMembershipInfo().GetReachableMembers(),
		Rings:             map[string][]string{},
		HistoryShards:     map[string][]int32{},
	}
	sort.Strings(out.ReachableMembers)
	for _, ring := range resp.GetMembershipInfo().GetRings() {
		members := []string{}
		for _, m := range ring.GetMembers() {
			members = append(members, m.GetIdentity())
		}
		sort.Strings(members)
		out.Rings[ring.GetRole()] = members
	}
	admin := adminservice.NewAdminServiceClient(conn)
	for _, host := range out.Rings["history"] {
		h, err := admin.DescribeHistoryHost(ctx, &adminservice.DescribeHistoryHostRequest{HostAddress: host})
		if err != nil {
			return fmt.Errorf("DescribeHistoryHost %s: %w", host, err)
		}
		ids := h.GetShardIds()
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		out.HistoryShards[host] = ids
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
