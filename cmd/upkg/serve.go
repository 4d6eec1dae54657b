package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/web"
)

func init() { register(newServeCmd) }

type serveOptions struct {
	addr   string
	noOpen bool
}

func newServeCmd(g *globalFlags) *cobra.Command {
	o := &serveOptions{}
	c := &cobra.Command{
		Use:   "serve",
		Short: "Open the viewer page in your browser (files are read locally, never uploaded)",
		Long: `serve starts the upkg page on this machine and opens it in your browser.
Drop a .uasset (with its .uexp/.ubulk), a UE1–UE3 package, a .utoc with its
.ucas, or a .pak on the page: upkg's own readers, compiled to WebAssembly,
read it inside the browser. The page's Content-Security-Policy forbids any
network connection except to this server's own page files.

The WebAssembly is built with the Go toolchain on first use and cached in the
user cache directory (keyed by a hash of the sources).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			return runServe(ctx, cmd, o)
		},
	}
	c.Flags().StringVar(&o.addr, "addr", "127.0.0.1:0", "address to listen on (port 0 picks a free one); loopback keeps the page private to this machine")
	c.Flags().BoolVar(&o.noOpen, "no-open", false, "do not open a browser, only print the URL")
	return c
}

func runServe(ctx context.Context, cmd *cobra.Command, o *serveOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil {
		return usagef(cmd.CommandPath(), "--addr %q: %v", o.addr, err)
	}
	a, err := web.Build(ctx, web.BuildOptions{Log: cmd.ErrOrStderr()})
	if err != nil {
		return err
	}
	h, err := web.Handler(a)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintf(cmd.ErrOrStderr(), "upkg: warning: listening on %s: other machines can load the page (files dropped on it are still read only in the browser)\n", ln.Addr())
	}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(cmd.OutOrStdout(), "serving the page at %s (Ctrl-C to stop)\n", url)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if !o.noOpen {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "upkg: could not open a browser (%v); open %s yourself\n", err, url)
		}
	}
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	}
}

// openBrowser asks the desktop to open url, without waiting for the browser.
func openBrowser(url string) error {
	var c *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		c = exec.Command("open", url)
	case "windows":
		c = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return errors.New("no graphical display")
		}
		c = exec.Command("xdg-open", url)
	}
	if err := c.Start(); err != nil {
		return err
	}
	go c.Wait()
	return nil
}
