package boltstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// lockTimeout bounds how long Open waits for the file lock: long enough
// for a process that is exiting to let go of it (bbolt retries every 50
// ms), short enough that a second crawler on the file fails at once.
const lockTimeout = 100 * time.Millisecond

// The suffixes of a file moved aside, of the mark of a check, and of the
// lock of a replacement.
const (
	unusableSuffix  = ".unusable"
	checkingSuffix  = ".checking"
	replacingSuffix = ".replacing"
)

// Open opens the Store file at path, creating it if it does not exist.
// Among its errors are [ErrLocked] and [ErrFormat]. It empties a file of
// an earlier layout, whose entries the crawler then fetches again.
func Open(path string, opts ...Option) (*Store, error) {
	cfg := config{logger: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(&cfg)
	}
	found, _ := os.Stat(path)
	db, live, err := openFile(path, cfg.replace)
	if err != nil && cfg.replace && errors.Is(err, ErrFormat) {
		db, live, err = replace(path, found, db, err, cfg.logger)
	}
	if err != nil {
		if (found == nil || found.Mode().IsRegular() && found.Size() == 0) && !errors.Is(err, ErrLocked) {
			emptyUnfinished(path) // bbolt lays out an empty file as one it creates
		}
		return nil, fmt.Errorf("boltstore: open %s: %w", path, err)
	}
	s := &Store{
		db:      db,
		path:    path,
		limit:   maxPending,
		bound:   bound{maxBytes: cfg.maxBytes, ratio: initialRatio},
		logger:  cfg.logger,
		pending: map[string]*record{},
		room:    make(chan struct{}),
		wake:    make(chan struct{}, 1),
		done:    make(chan struct{}),
		damaged: make(chan struct{}),
	}
	if cfg.maxBytes > 0 {
		s.limit = int(min(maxPending, cfg.maxBytes/4))
		_ = s.guard(func() error { s.bound.measure(db, live); return nil })
	}
	go s.write()
	return s, nil
}

// replace moves found, the file at path that openFile found unusable
// with err, aside and opens an empty one there, holding path +
// ".replacing" open throughout, lest two Opens that found it unusable at
// once each open a Store (one of them on the file the other moved
// aside): the second finds the lock taken, or, the file at path another,
// that one in use, and fails with ErrLocked. held, if not nil, is the
// file openFile found unusable, still open, which replace closes once it
// is aside: an Open that would find it usable (one that does not check
// the whole file, or after the mark of the check that failed is gone)
// fails with ErrLocked meanwhile.
func replace(path string, found fs.FileInfo, held *bolt.DB, err error, logger *slog.Logger) (*bolt.DB, int64, error) {
	release := func() {
		if held != nil {
			_ = contain(held.Close)
			held = nil
		}
	}
	defer release()
	// A bbolt file of its own: bbolt's lock, on every system it runs on.
	// One a crash left unusable holds nothing: it is made again.
	lockPath := path + replacingSuffix
	lock, lerr := openDB(lockPath, false)
	if errors.Is(lerr, ErrFormat) {
		if rerr := os.Remove(lockPath); rerr != nil {
			return nil, 0, fmt.Errorf("%w; removing %s: %w", lerr, lockPath, rerr)
		}
		lock, lerr = openDB(lockPath, false)
	}
	if lerr != nil {
		return nil, 0, fmt.Errorf("%s: %w", lockPath, lerr)
	}
	defer lock.Close()
	if now, serr := os.Stat(path); found != nil && serr == nil && !os.SameFile(found, now) {
		return openFile(path, false) // another Open replaced it
	}
	if runtime.GOOS == "windows" {
		release() // Windows moves no file open so: another Open may take it first
	}
	aside := path + unusableSuffix
	if rerr := os.Rename(path, aside); rerr != nil {
		return nil, 0, fmt.Errorf("%w; moving it aside: %w", err, rerr)
	}
	logger.Warn("boltstore: the file is unusable; moved it aside and started an empty one",
		slog.String("path", path), slog.String("aside", aside), slog.String("error", err.Error()))
	return openFile(path, false)
}

// openFile opens the file at path and lays it out if need be; with
// check, it verifies the whole file. It returns the live total. When only
// the check found the file unusable, it returns the error with the file
// still open, for replace to move aside while no other Open can take it.
func openFile(path string, check bool) (db *bolt.DB, live int64, err error) {
	err = probe(path)
	if err == nil {
		db, err = openDB(path, false)
	}
	if errors.Is(err, ErrLocked) && isLeaked(path) {
		err = fmt.Errorf("%w: %w: bbolt failed reading it before, and holds it locked since", ErrFormat, ErrDamaged)
	}
	if err != nil {
		return nil, 0, err
	}
	var lay, checked bool
	err = contain(func() error {
		return db.View(func(tx *bolt.Tx) error {
			var err error
			if lay, err = checkLayout(tx); err != nil {
				return err
			}
			if check {
				// An earlier layout's pages too, which layOut walks to
				// delete them: a loop among them would hold it for ever.
				checked = true
				if lay {
					return mark(path, func() error { return walk(tx) })
				}
				if err := mark(path, func() error { return verify(tx) }); err != nil {
					return err
				}
			}
			if !lay {
				live = readLive(tx.Bucket(bucketMeta))
			}
			return nil
		})
	})
	if err == nil && lay {
		err = contain(func() error { return db.Update(layOut) })
	}
	if err != nil {
		if errors.Is(err, ErrDamaged) {
			err = fmt.Errorf("%w: %w", ErrFormat, err)
		}
		if checked && errors.Is(err, ErrFormat) {
			return db, 0, err
		}
		_ = contain(db.Close)
		return nil, 0, err
	}
	return db, live, nil
}

// mark runs check with a marker file beside path, which a check that ends
// the process leaves behind. One process ended so may have been killed
// (a deploy, the OOM killer) with nothing amiss: the next mark checks
// again, noting it in the marker; after two in a row it fails with
// ErrDamaged.
func mark(path string, check func() error) (err error) {
	marker := path + checkingSuffix
	ended, err := os.ReadFile(marker)
	switch {
	case err == nil && len(ended) > 0:
		return errors.Join(fmt.Errorf("%w: two processes in a row ended while checking it", ErrDamaged), os.Remove(marker))
	case err == nil:
		ended = []byte{1}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if err := os.WriteFile(marker, ended, 0o600); err != nil {
		return err
	}
	defer func() { err = errors.Join(err, os.Remove(marker)) }() // also when check panics
	return check()
}

// probe refuses, opening it read-only, a file that ends before the pages
// its meta page counts (opened for writing, bbolt would fault on it and
// keep it locked) and another program's file (opened for writing, bbolt
// commits to one whose free list is not synced, as etcd's is not).
func probe(path string) error {
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 || !fi.Mode().IsRegular() {
		return nil // bbolt creates it, or says why it cannot (a directory: EISDIR)
	}
	db, err := openDB(path, true)
	if err != nil {
		return err
	}
	fi, serr := os.Stat(path)
	var pages int64
	err = contain(func() error {
		return db.View(func(tx *bolt.Tx) error {
			if pages = tx.Size(); serr != nil || pages > fi.Size() {
				return nil // said below: its pages are not all there to read
			}
			if _, err := checkLayout(tx); err != nil {
				return err
			}
			return checkFreelist(tx)
		})
	})
	if errors.Is(err, ErrDamaged) && !errors.Is(err, ErrFormat) {
		err = fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if err = errors.Join(err, serr, contain(db.Close)); err != nil {
		return err
	}
	if pages > fi.Size() {
		return fmt.Errorf("%w: %w: cut short: its pages take %d bytes, the file has %d", ErrFormat, ErrDamaged, pages, fi.Size())
	}
	return nil
}

// The layout of a bbolt meta page past its page header: the magic number
// at 0, the free list's page id at 32 (^0 when it is not kept in the
// file), the transaction's id at 48.
const (
	metaMagic    = 0xED0CDAED
	metaFreelist = 32
	metaTxid     = 48
	freelistPage = 0x10
	noFreelist   = ^uint64(0)
)

// checkFreelist refuses, reading the file, one that keeps no free list
// (boltstore writes none so; bbolt's surgery command and NoFreelistSync
// do) and a long free list (64k page ids or more, whose count bbolt
// keeps in the list's first slot, under no checksum) counting more ids
// than its pages hold. Opening the file for writing, bbolt rebuilds a
// missing list walking every tree on a goroutine of its own, where a
// damaged page ends the process before any check could replace the
// file, and allocates as much as a long list's count says (a flipped
// high bit asks for hundreds of GiB). The meta page read is the one of
// tx's id, which bbolt opens the file on.
func checkFreelist(tx *bolt.Tx) error {
	f, err := os.Open(tx.DB().Path())
	if err != nil {
		return err
	}
	defer f.Close()
	size := int64(tx.DB().Info().PageSize)
	list, found := noFreelist, false
	var b [pageHead + metaTxid + 8]byte
	for at := range int64(2) {
		if _, err := f.ReadAt(b[:], at*size); err != nil {
			return err
		}
		m := b[pageHead:]
		if binary.LittleEndian.Uint32(m) == metaMagic && binary.LittleEndian.Uint64(m[metaTxid:]) == uint64(tx.ID()) {
			list, found = binary.LittleEndian.Uint64(m[metaFreelist:]), true
		}
	}
	if found && list == noFreelist {
		return fmt.Errorf("%w: its meta page keeps no free list", ErrFormat)
	}
	if list == noFreelist || list >= uint64(tx.Size()/size) {
		return nil // no meta page of that id, or past the pages: bbolt refuses it
	}
	if _, err := f.ReadAt(b[:pageHead+8], int64(list)*size); err != nil {
		return err
	}
	flags, count, overflow := binary.LittleEndian.Uint16(b[8:]), binary.LittleEndian.Uint16(b[10:]), binary.LittleEndian.Uint32(b[12:])
	if flags&freelistPage == 0 || count != 0xFFFF {
		return nil
	}
	n, room := binary.LittleEndian.Uint64(b[pageHead:]), (uint64(overflow)+1)*uint64(size)-pageHead
	if n >= room/8 { // the count's own slot, then n ids
		return fmt.Errorf("%w: the free list counts %d page ids, more than its %d bytes hold", ErrDamaged, n, room)
	}
	return nil
}

// openDB opens the file at path. A file that bbolt panics or faults
// opening stays locked until the process exits: leak records it, so that
// openFile can tell it from one another Store has open.
func openDB(path string, readOnly bool) (*bolt.DB, error) {
	var db *bolt.DB
	var f *os.File
	err := contain(func() error {
		var err error
		db, err = bolt.Open(path, 0o600, &bolt.Options{
			Timeout:  lockTimeout,
			ReadOnly: readOnly,
			OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
				var err error
				f, err = os.OpenFile(name, flag, perm)
				return f, err
			},
		})
		return err
	})
	switch {
	case err == nil:
		return db, nil
	case errors.Is(err, ErrDamaged):
		if f != nil {
			leak(f)
			_ = f.Close()
		}
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, ErrLocked
	case errors.Is(err, bolterrors.ErrChecksum):
		return nil, fmt.Errorf("%w: %w: %w", ErrFormat, ErrDamaged, err)
	case errors.As(err, new(*fs.PathError)), errors.As(err, new(syscall.Errno)):
		return nil, err
	}
	return nil, fmt.Errorf("%w: %w", ErrFormat, err)
}

// leaked are the files that bbolt holds locked after failing to open.
var leaked struct {
	sync.Mutex
	files []os.FileInfo
}

func leak(f *os.File) {
	if fi, err := f.Stat(); err == nil {
		leaked.Lock()
		defer leaked.Unlock()
		leaked.files = append(leaked.files, fi)
	}
}

func isLeaked(path string) bool {
	fi, err := os.Stat(path)
	leaked.Lock()
	defer leaked.Unlock()
	return err == nil && slices.ContainsFunc(leaked.files, func(l os.FileInfo) bool { return os.SameFile(l, fi) })
}

// emptyUnfinished empties the file at path, which an Open that found
// none there, or an empty one, failed to lay out, when it holds only the
// start of bbolt's layout (under its first four pages, a meta page first)
// and no other Open holds it: bbolt was cut short laying it out (a full
// disk), and every later Open would refuse it as damaged, with room again
// too. It empties the file it checked, through its handle, and not a
// link the operator made at path.
func emptyUnfinished(path string) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer f.Close()
	var head [pageHead + 12]byte // a meta page's magic, version and page size
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 || fi.Size() >= 4*int64(os.Getpagesize()) {
		return
	}
	if _, err := f.ReadAt(head[:], 0); err != nil || binary.LittleEndian.Uint32(head[pageHead:]) != metaMagic ||
		binary.LittleEndian.Uint32(head[pageHead+8:]) != uint32(os.Getpagesize()) {
		return // another program's, written since Open found it empty (a whole one if of smaller pages)
	}
	db, err := openDB(path, true) // refused while another Open holds it
	if err == nil {
		_ = db.Close()
	}
	if !errors.Is(err, ErrLocked) {
		_ = f.Truncate(0)
	}
}
