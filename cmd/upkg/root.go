package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/aeskey"
	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/uasset"
)

// subcommands are added by each subcommand's file in an init function, so
// that the files stay independent of each other.
var subcommands []func(g *globalFlags) *cobra.Command

func register(fn func(g *globalFlags) *cobra.Command) { subcommands = append(subcommands, fn) }

// globalFlags are the flags every command accepts.
type globalFlags struct {
	engine   string
	mappings string
	aesKey   string
}

// options turns the global flags into library options.
// maxJobsPerCPU bounds --jobs: workers beyond it wait for processors and
// hold memory.
const maxJobsPerCPU = 4

func (g *globalFlags) options() *inspect.Options {
	// Commands read a package through and then close it: a big package
	// chunk in a container is hashed as it is read and checked on closing
	// (decoded once, not twice; the close reports a mismatch).
	return &inspect.Options{Engine: g.engine, Mappings: g.mappings, AESKey: g.aesKey, LateChunkHash: true}
}

func newRootCmd() *cobra.Command {
	g := &globalFlags{}
	root := &cobra.Command{
		Use:   "upkg",
		Short: "Read Unreal Engine packages (UE1 to UE5) and their containers",
		Long: `upkg reads Unreal Engine package files of every generation: Unreal 1 / UT99 /
UE2 / UE3 packages, UE4 and UE5 .uasset/.umap (editor-saved and cooked, with
.uexp/.ubulk), and the containers games ship them in (.utoc/.ucas, .pak).

Nothing upkg is pointed at is ever modified.

A package inside a container is named CONTAINER::/Game/Path/Asset.

Environment:
  UPKG_GLOBAL  the game's global container (global.utoc), its ScriptObjects
               chunk as retoc extracts it, or a folder of such chunks: its
               script objects name the /Script imports of zen packages, loose
               (.uzenasset, zen .uasset) or in a .utoc. It comes first;
               without it (or when it cannot be read, which is said), a
               global.utoc in the file's folder or the two above it is used.`,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &usageError{cmd: c.CommandPath(), err: err}
	})
	// A key that cannot be a key is a mistake in the command line, told
	// before any file is read (not blamed on the first file opened).
	root.PersistentPreRunE = func(c *cobra.Command, args []string) error {
		if textCommands[c.Name()] {
			c.SetOut(controlEscaper{c.OutOrStdout()})
		}
		// Standard error is text for every command (export's and
		// thumbnail's messages quote names from files too).
		c.SetErr(controlEscaper{c.ErrOrStderr()})
		if err := aeskey.CheckList(g.aesKey); err != nil {
			return usagef(c.CommandPath(), "--aes-key: %v", err)
		}
		if g.engine != "" {
			if _, ok := uasset.LookupEngine(g.engine); !ok {
				return usagef(c.CommandPath(), "--engine: unknown engine version %q (known: %s)", g.engine, strings.Join(uasset.EngineNames(), ", "))
			}
		}
		if g.mappings != "" {
			// Told once, before any package, rather than as each
			// package's property error (dump showed it only in its JSON).
			if st, err := os.Stat(g.mappings); err != nil {
				return usagef(c.CommandPath(), "--mappings: %v", err)
			} else if !st.Mode().IsRegular() {
				return usagef(c.CommandPath(), "--mappings: %s is not a file", g.mappings)
			}
		}
		// Commands with workers: none is a mistake, not "all cores"; more
		// than a few per processor only cost memory (each holds its
		// buffers: 4.9 GB for a million).
		if f := c.Flags().Lookup("jobs"); f != nil {
			n, err := strconv.Atoi(f.Value.String())
			if err == nil && n < 1 {
				return usagef(c.CommandPath(), "--jobs: %d workers; give at least 1", n)
			}
			if most := maxJobsPerCPU * runtime.GOMAXPROCS(0); err == nil && n > most {
				fmt.Fprintf(c.ErrOrStderr(), "upkg: --jobs %d: using %d (%d per processor)\n", n, most, maxJobsPerCPU)
				f.Value.Set(strconv.Itoa(most))
			}
		}
		return nil
	}
	pf := root.PersistentFlags()
	pf.StringVar(&g.engine, "engine", "", "engine version for unversioned (cooked) packages, e.g. 4.27 or 5.3")
	pf.StringVar(&g.mappings, "mappings", "", "`.usmap` mappings file for unversioned properties")
	pf.StringVar(&g.aesKey, "aes-key", "", "AES-256 key for encrypted containers and packages: 64 hex digits (0x optional), base64, or the 32 characters themselves; several keys separated by commas are tried in turn")
	for _, fn := range subcommands {
		c := fn(g)
		if c.Args == nil {
			c.Args = cobra.ArbitraryArgs
		}
		wrapArgs(c)
		root.AddCommand(c)
	}
	// `upkg completion SHELL` and `upkg help COMMAND`: a word that is no
	// shell or command is a usage error (cobra's own printed help, or
	// "Unknown help topic", and exited 0).
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			// Runnable, so that cobra checks its arguments (it printed
			// the help of a command with subcommands only, and exited 0).
			c.Args = cobra.NoArgs
			wrapArgs(c)
			c.RunE = func(c *cobra.Command, args []string) error {
				return usagef(c.CommandPath(), "name the shell: bash, zsh, fish or powershell")
			}
		}
	}
	setCompletions(root, g)
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "help shows the help of any command: upkg help COMMAND is upkg COMMAND --help.",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var names []cobra.Completion
			for _, sub := range root.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					names = append(names, sub.Name())
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 || (target == root && len(args) > 0) {
				return usagef(c.CommandPath(), "unknown help topic %q (the commands are listed by upkg help)", strings.Join(args, " "))
			}
			target.InitDefaultHelpFlag()
			return target.Help()
		},
	})
	return root
}

// wrapArgs turns cobra's argument-count errors into usage errors (exit 2),
// worded from the command's use line ("accepts 1 arg(s), received 2" says
// neither what nor how).
func wrapArgs(c *cobra.Command) {
	check := c.Args
	c.Args = func(cmd *cobra.Command, args []string) error {
		err := check(cmd, args)
		if err == nil {
			return nil
		}
		if strings.HasPrefix(err.Error(), "accepts ") {
			want := useArgs(cmd)
			msg := fmt.Sprintf("takes %s; got %d argument", strings.Join(want, " "), len(args))
			if len(args) != 1 {
				msg += "s"
			}
			if len(args) > len(want) && len(want) > 0 && want[len(want)-1] == "FILE" {
				msg += " (one package at a time: info, verify and export take several)"
			}
			err = errors.New(msg)
		}
		return &usageError{cmd: cmd.CommandPath(), err: err}
	}
}

// useArgs returns the positional arguments of a use line ("props
// [--export NAME] [--json] FILE" gives FILE): its upper-case words outside
// brackets that are no flag's value.
func useArgs(cmd *cobra.Command) []string {
	var out []string
	depth, afterFlag := 0, false
	for _, w := range strings.Fields(cmd.Use)[1:] {
		opens, closes := strings.Count(w, "["), strings.Count(w, "]")
		name := strings.Trim(w, "[]")
		isFlag := strings.HasPrefix(name, "-")
		if depth == 0 && opens == 0 && !isFlag && !afterFlag && w == strings.ToUpper(w) {
			out = append(out, strings.TrimSuffix(w, "..."))
		}
		// A flag's value follows it, unless it is a switch.
		afterFlag = false
		if isFlag && closes == 0 {
			f := cmd.Flags().Lookup(strings.TrimLeft(name, "-"))
			if f == nil && len(name) == 2 {
				f = cmd.Flags().ShorthandLookup(name[1:])
			}
			afterFlag = f != nil && f.Value.Type() != "bool"
		}
		depth += opens - closes
	}
	return out
}

func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Version == "" {
		return "devel"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " (" + s.Value[:12] + ")"
		}
	}
	return v
}
