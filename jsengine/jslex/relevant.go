package jslex

import "strings"

// relevantWords are the identifiers, property names and string words from
// which the analysis can derive a fact in a file that is not connected to
// an Electron module through its requires: Electron's own names, the
// receivers and methods the syntactic rules match by text (loadURL,
// …Contents.send, event.reply, window.<api>.<fn>(…)), network endpoints,
// browser storage, workers, code-from-string functions, child processes,
// and bundle runtimes (bundle recovery). Keep it a superset of the names
// jsengine's analyzer and rules dispatch on (electron.go interestingCalls,
// syntacticCall, newExpr, network.go, rules_syntax.go, bundle.go's
// markers); TestRelevantWordsCoverTheAnalyzersNames checks the lists.
var relevantWords = map[string]bool{
	// Electron modules and objects
	"ipcMain": true, "ipcRenderer": true, "contextBridge": true, "BrowserWindow": true, "BrowserView": true,
	"WebContentsView": true, "webContents": true, "sender": true, "reply": true, "webview": true, "MessageChannelMain": true,
	// methods dispatched on by name
	"loadURL": true, "loadFile": true, "setWindowOpenHandler": true, "setPermissionRequestHandler": true,
	"setPermissionCheckHandler": true, "setDevicePermissionHandler": true, "setCertificateVerifyProc": true,
	"executeJavaScript": true, "executeJavascript": true, "insertCSS": true, "importCertificate": true,
	"openExternal": true, "openPath": true, "appendSwitch": true, "appendArgument": true, "setAsDefaultProtocolClient": true,
	"registerFileProtocol": true, "registerHttpProtocol": true, "registerStringProtocol": true, "registerBufferProtocol": true,
	"registerStreamProtocol": true, "registerSchemesAsPrivileged": true, "registerStandardSchemes": true,
	"registerServiceWorkerSchemes": true, "interceptFileProtocol": true, "interceptHttpProtocol": true,
	"interceptStringProtocol": true, "interceptBufferProtocol": true, "postMessage": true, "sendToFrame": true,
	"sendTo": true, "sendToHost": true, "answerMain": true, "answerRenderer": true, "callMain": true, "callRenderer": true,
	"callFocusedRenderer": true,
	// globals of the renderer bridge and of assignments rules judge
	"window": true, "globalThis": true, "self": true,
	// network, storage, workers
	"fetch": true, "axios": true, "XMLHttpRequest": true,
	"WebSocket": true, "EventSource": true, "localStorage": true, "sessionStorage": true, "indexedDB": true, "caches": true,
	"Worker": true, "SharedWorker": true, "serviceWorker": true,
	// code from strings
	"eval": true, "Function": true, "setTimeout": true, "setInterval": true, "setImmediate": true,
	// child processes
	"child_process": true, "exec": true, "execSync": true, "spawn": true, "spawnSync": true, "execFile": true,
	"execFileSync": true, "fork": true,
	// bundle runtimes (jsengine/bundle.go detectBundle's markers)
	"__webpack_require__": true, "MODULE_NOT_FOUND": true, "webpackJsonp": true, "__commonJS": true, "__esm": true,
	"__webpack_modules__": true,
}

// relevantSubstrings match anywhere, ASCII case-insensitively (they are
// lower case here): a word containing one is relevant (webContents,
// guestContents, ELECTRON_…, "@electron/remote", webpackChunk_app, an xhr
// receiver, "will-attach-webview", the Content-Security-Policy header).
var relevantSubstrings = []string{"electron", "contents", "webview", "xhr", "webpackchunk", "rspackchunk", "security-policy"}

// pairReceivers are words relevant only as the receiver of an HTTP method
// (http.get, net.request): network.go's endpointCall matches exactly that
// text, and alone they are too common to mean anything ("http" is in the
// licence URL at the head of most files).
var pairReceivers = map[string]bool{"http": true, "https": true, "got": true, "superagent": true, "net": true, "request": true}

var httpMethods = map[string]bool{"get": true, "post": true, "put": true, "delete": true, "patch": true, "head": true, "request": true}

// localWords are relevant words whose facts the analysis records only at
// the file's own syntax (a timer given a string, eval, an endpoint of
// fetch, a storage global, a worker, a bundle runtime, a CSP header, an
// HTTP client call): a file that imports such a file gains nothing from
// it. Every other relevant word (Electron's objects, IPC, windows, the
// renderer bridge, child processes) can reach an importer through an
// exported object or helper, so it makes the file's importers relevant.
var localWords = map[string]bool{
	"fetch": true, "axios": true, "XMLHttpRequest": true, "xhr": true, "WebSocket": true, "EventSource": true,
	"localStorage": true, "sessionStorage": true, "indexedDB": true, "caches": true,
	"Worker": true, "SharedWorker": true, "serviceWorker": true,
	"eval": true, "Function": true, "setTimeout": true, "setInterval": true, "setImmediate": true,
	"__webpack_require__": true, "MODULE_NOT_FOUND": true, "webpackJsonp": true, "__commonJS": true, "__esm": true,
	"__webpack_modules__": true, "webpackchunk": true, "rspackchunk": true, "security-policy": true,
}

// relevantWord returns the first relevant word of src ("" when none), and
// whether some relevant word of src is not local (localWords): then
// importers of the file can gain facts from it. Words are runs of
// identifier bytes (ASCII letters, digits, _ and $, and every byte ≥
// 0x80); hyphens join words into one run for the substring test so that
// header and event names ("content-security-policy") are seen whole. Each
// byte is visited a bounded number of times (linear in len(src)).
func relevantWord(src string) (first string, propagates bool) {
	n := len(src)
	note := func(w string) bool {
		if first == "" {
			first = w
		}
		if !localWords[w] && !(strings.Contains(w, ".") && pairReceivers[w[:strings.IndexByte(w, '.')]]) {
			propagates = true
		}
		return propagates
	}
	for i := 0; i < n; {
		if !isIdentPart(src[i]) {
			i++
			continue
		}
		runStart := i
		runEnd := i
		for runEnd < n && (isIdentPart(src[runEnd]) || src[runEnd] == '-') {
			runEnd++
		}
		for _, sub := range relevantSubstrings {
			if containsFold(src[runStart:runEnd], sub) && note(sub) {
				return
			}
		}
		for i < runEnd {
			if src[i] == '-' {
				i++
				continue
			}
			start := i
			for i < runEnd && src[i] != '-' {
				i++
			}
			w := src[start:i]
			if relevantWords[w] && note(w) {
				return
			}
			if pairReceivers[w] && i+1 < n && src[i] == '.' {
				j := i + 1
				for j < n && isIdentPart(src[j]) {
					j++
				}
				if httpMethods[src[i+1:j]] && note(w+"."+src[i+1:j]) {
					return
				}
			}
		}
		i = runEnd
	}
	return
}

// containsFold reports whether sub (lower-case ASCII) occurs in w,
// comparing ASCII letters case-insensitively.
func containsFold(w, sub string) bool {
	for i := 0; i+len(sub) <= len(w); i++ {
		ok := true
		for j := 0; j < len(sub); j++ {
			c := w[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
