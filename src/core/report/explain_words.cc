// The small pieces explain's readers are made of: versions, file names and findings.
#include "explain_read.h"
#include "text.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace cudnn_compat::explain {
namespace {

char fold(char c) {
  return c >= 'A' && c <= 'Z' ? char(c + ('a' - 'A')) : c;
}

bool hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f');
}

// Where a file's name ends: ASCII punctuation and spaces, and any byte of a character past
// ASCII - the quotes a translated compiler or a word processor puts around a name ("“cudnn.h”"),
// the text a paste runs on into ("libcudnn.so.9: ...directory您好").
bool name_end(char c) {
  return c == ' ' || c == '\'' || c == '"' || c == '`' || c == ';' || c == ',' || c == '}' ||
         c == '{' || c == '(' || c == ')' || c == '[' || c == ']' || c == ':' || c == '\t' ||
         c == '=' || c == '<' || c == '>' || (static_cast<unsigned char>(c) & 0x80) != 0;
}

// The extensions of the files the messages name: shared libraries (.so with its version after
// it), import libraries and headers.
constexpr std::array<std::string_view, 5> kExtensions{"so", "dll", "dylib", "h", "lib"};

// libcudnn.so.8, cudnn64_8.dll and Windows' CUDNN64_8.DLL, libcudnn.dylib, cudnn.h, cudnn.lib.
bool names_a_file(std::string_view w) {
  if (has(w, ".so") || w.ends_with(".DLL")) return true;
  const std::size_t dot = w.rfind('.');
  return dot != std::string_view::npos &&
         std::find(kExtensions.begin(), kExtensions.end(), w.substr(dot + 1)) != kExtensions.end();
}

}  // namespace

bool extension_start(std::string_view s) {
  for (std::string_view ext : kExtensions)
    if (s.starts_with(ext) &&
        (s.size() == ext.size() ||
         std::string_view(".:\"',)").find(s[ext.size()]) != std::string_view::npos))
      return true;
  return false;
}

std::optional<std::string_view> after(std::string_view s, std::string_view marker) {
  // Case aside: tools and their releases capitalise the same words differently. ASCII folding
  // inline: a job log's lines are offered to every marker of every reader.
  if (marker.empty() || marker.size() > s.size()) return std::nullopt;
  const char first = fold(marker[0]);
  for (std::size_t i = 0; i + marker.size() <= s.size(); ++i) {
    if (fold(s[i]) != first) continue;
    std::size_t k = 1;
    while (k < marker.size() && fold(s[i + k]) == fold(marker[k])) ++k;
    if (k == marker.size()) return s.substr(i + marker.size());
  }
  return std::nullopt;
}

std::string_view token(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s[0] == '(') return s.substr(0, s.find(')') + 1);
  std::size_t n = 0;
  while (n < s.size() && (is_digit(s[n]) || s[n] == '.')) ++n;
  std::string_view t = s.substr(0, n);
  while (!t.empty() && t.back() == '.') t.remove_suffix(1);
  return t;
}

std::optional<Version> version_of(std::string_view t) {
  if (t.empty()) return std::nullopt;
  if (t[0] == '(') {
    if (Parsed<Version> v = parse_tuple(t)) return *v;
    return std::nullopt;
  }
  if (all_digits(t)) {
    if (t.size() <= 2) return Version{int(*parse_uint(t)), {}, {}, {}};  // "cuDNN 8", "v5", "R7"
    if (Parsed<Version> v = parse_cudnn_number(t)) return *v;
    return std::nullopt;
  }
  if (Parsed<Version> v = parse_dotted(t)) return *v;
  return std::nullopt;
}

bool has(std::string_view s, std::string_view what) {
  return s.find(what) != std::string_view::npos;
}

std::optional<Version> version_after(std::string_view s, std::string_view marker) {
  std::optional<std::string_view> rest = after(s, marker);
  if (!rest) return std::nullopt;
  // "compiled with: 7.1.4", "version=8.9.2": the separator is no part of the version.
  std::size_t at = 0;
  while (at < rest->size() && ((*rest)[at] == ' ' || (*rest)[at] == ':' || (*rest)[at] == '='))
    ++at;
  return version_of(token(rest->substr(at)));
}

std::string raw_numbers(std::string_view line) {
  std::string note;
  bool old_encoding = false, new_encoding = false;
  for (std::size_t i = 0; i < line.size();) {
    if (!is_digit(line[i]) || (i > 0 && (std::isalnum(static_cast<unsigned char>(line[i - 1])) ||
                                         line[i - 1] == '.' || line[i - 1] == ':'))) {
      ++i;
      continue;
    }
    std::size_t n = i;
    while (n < line.size() && is_digit(line[n])) ++n;
    const std::string_view digits = line.substr(i, n - i);
    i = n;
    if (n < line.size() && (line[n] == '.' || line[n] == ']' || line[n] == ':') &&
        n + 1 < line.size() && is_digit(line[n + 1]))
      continue;  // part of a dotted version or a source position
    if (digits.size() < 4 || digits.size() > 5) continue;
    const Parsed<Version> v = parse_cudnn_number(digits);
    // No framework these messages come from ran on cuDNN 1-3: a 2018 there is a year.
    if (!v || v->major < 4) continue;
    const std::string text = std::string(digits) + " is cuDNN " + to_string(*v);
    if (note.find(text) != std::string::npos) continue;
    note += (note.empty() ? "" : ", ") + text;
    (v->major >= 9 ? new_encoding : old_encoding) = true;
  }
  if (note.empty()) return note;
  if (old_encoding) note += " (cudnnGetVersion(): major*1000 + minor*100 + patch";
  if (new_encoding)
    note += std::string(old_encoding ? "; from 9 on " : " (") + "major*10000 + minor*100 + patch";
  note += ")";
  if (line.find("compatibility version") != std::string_view::npos)
    note += "; TensorFlow's \"compatibility version\" is the same number without the patch";
  return note;
}

std::string word_before(std::string_view s, std::size_t at) {
  std::size_t b = at;
  while (b > 0 && s[b - 1] != ' ' && s[b - 1] != '\'' && s[b - 1] != '"' && s[b - 1] != '{' &&
         s[b - 1] != ',' && s[b - 1] != '(' && s[b - 1] != '\t' && s[b - 1] != '`')
    --b;
  return std::string(s.substr(b, at - b));
}

std::string library_at(std::string_view s) {
  s = trim(s);
  std::size_t n = 0;
  while (n < s.size() && s[n] != ' ' && s[n] != '\'' && s[n] != '"' && s[n] != ';' && s[n] != ',' &&
         s[n] != '}' && s[n] != ':' && s[n] != ')')
    ++n;
  std::string_view w = s.substr(0, n);
  while (!w.empty() && w.back() == '.') w.remove_suffix(1);
  return std::string(w);
}

std::string canonical_library(std::string_view word) {
  const std::string_view base = basename_of(word);
  if (is_cudnn_library_name(base)) return std::string(base);
  // Windows file names have no case: Cudnn64_7.dll, CUDNN64_8.DLL.
  std::string low = folded(base);
  if (low.ends_with(".dll") && is_cudnn_library_name(low)) return low;
  // auditwheel and delocate rename bundled libraries: libcudnn-<8 hex digits>.so.7.
  const std::size_t dash = base.find('-');
  const std::size_t dot = base.find(".so", dash == std::string_view::npos ? 0 : dash);
  if (dash == std::string_view::npos || dot == std::string_view::npos || dot <= dash + 1) return {};
  for (char c : base.substr(dash + 1, dot - dash - 1))
    if (!hex(c)) return {};
  const std::string plain = std::string(base.substr(0, dash)) + std::string(base.substr(dot));
  return is_cudnn_library_name(plain) ? plain : std::string();
}

std::optional<int> windows_code(std::string_view s) {
  for (int code : {126, 127})
    for (std::string_view form :
         {"WinError ", "error code is ", "Error code ", "error code ", "Error ", "error "})
      if (s.find(std::string(form) + std::to_string(code)) != std::string_view::npos) return code;
  return std::nullopt;
}

bool cudnn_dependency(std::string_view name) {
  const std::string low = folded(basename_of(name));
  for (std::string_view dep : {"libnvrtc", "nvrtc64", "libcublas", "cublas64", "cublaslt64",
                               "zlibwapi", "libz.so", "libcudart", "cudart64", "libcuda.so"})
    if (low.starts_with(dep)) return true;
  return false;
}

bool names_cudnn_library(std::string_view word) {
  return !canonical_library(word).empty();
}

std::vector<NamedFile> named_files(std::string_view line) {
  std::vector<NamedFile> out;
  for (std::size_t i = 0; i < line.size();) {
    while (i < line.size() && name_end(line[i])) ++i;
    std::size_t n = i;
    while (n < line.size() && !name_end(line[n])) ++n;
    const std::string_view word = line.substr(i, n - i);
    std::string_view w = basename_of(word);
    i = n;
    while (!w.empty() && (w.back() == '.' || w.back() == '!' || w.back() == '?'))
      w.remove_suffix(1);
    if (w.size() > 3 && names_a_file(w))
      out.push_back({std::size_t(word.data() - line.data()), word.size(), std::string(w)});
  }
  return out;
}

std::vector<std::string> file_names(std::string_view line) {
  std::vector<std::string> out;
  for (NamedFile &f : named_files(line)) out.push_back(std::move(f.name));
  return out;
}

// The English first; each other form as glibc's translations print it, every one of them seen in
// public logs and sources (zh_CN, zh_TW, ja, ko, de, fr, es, it, pt_BR, ru, uk, pl, tr, cs).
const std::array<std::string_view, 15> kNoSuchFile{"no such file",
                                                   "没有那个文件或目录",
                                                   "沒有此一檔案或目錄",
                                                   "そのようなファイルやディレクトリはありません",
                                                   "그런 파일이나 디렉터리가 없습니다",
                                                   "datei oder verzeichnis nicht gefunden",
                                                   "aucun fichier ou dossier de ce type",
                                                   "no existe el archivo o el directorio",
                                                   "file o directory non esistente",
                                                   "arquivo ou diretório inexistente",
                                                   "ет такого файла или каталога",
                                                   "емає такого файла або каталогу",
                                                   "nie ma takiego pliku ani katalogu",
                                                   "böyle bir dosya ya da dizin yok",
                                                   "adresář nebo soubor neexistuje"};

bool says_no_such_file(std::string_view low) {
  return std::any_of(kNoSuchFile.begin(), kNoSuchFile.end(),
                     [&](std::string_view w) { return has(low, w); });
}

// glibc 2.36's own translations (its libc.mo, the locales kNoSuchFile lists; generated from it) of
// the loader's words that explain reads in English; the zh_CN "cannot open shared object file" is
// common in public issues (HIT-SCIR/ltp#170, wangfenjin/simple#153).
struct LoaderWords {
  std::string_view english;
  std::array<std::string_view, 14> translated;
};
constexpr LoaderWords kLoaderWords[] = {
    {"cannot open shared object file",
     {"无法打开共享对象文件", "無法開啟共用物件", "共有オブジェクトファイルを開けません",
      "동적 오브젝트 파일을 열 수 없습니다", "Kann die Shared-Object-Datei nicht öffnen",
      "Ne peut ouvrir le fichier d'objet partagé",
      "no se puede abrir el fichero del objeto compartido",
      "impossibile aprire il file oggetto condiviso", "não é possível abrir arquivo compartilhado",
      "невозможно открыть разделяемый объектный файл",
      "не вдалося відкрити файл об’єктів спільного використання",
      "nie można otworzyć pliku obiektu dzielonego", "paylaşımlı nesne dosyası açılamıyor",
      "sdílený objektový soubor nelze otevřít"}},
    {"file too short",
     {"文件过短", "檔案太小", "ファイルが小さすぎます", "파일이 너무 짧습니다",
      "Die Datei ist zu kurz", "fichier trop court", "fichero demasiado corto", "file troppo corto",
      "arquivo pequeno demais", "файл слишком мал", "файл є надто коротким", "plik za krótki",
      "dosya çok küçük", "soubor je příliš krátký"}},
    {"Permission denied",
     {"权限不够", "拒絕不符權限的操作", "許可がありません", "허가 거부", "Keine Berechtigung",
      "Permission non accordée", "Permiso denegado", "Permesso negato", "Permissão negada",
      "Отказано в доступе", "Відмовлено у доступі", "Brak dostępu", "Erişim engellendi",
      "Operace zamítnuta"}},
    {"invalid ELF header",
     {"无效的 ELF 头", "無效的 ELF 標頭", "無効な ELF ヘッダーです", "ELF 헤더가 잘못됨",
      "Ungültiger ELF-Header", "en-tête ELF invalide", "cabecera ELF inválida",
      "intestazione ELF non valida", "cabeçalho de ELF inválido", "неверный заголовок ELF",
      "некоректний заголовок ELF", "nieprawidłowy nagłówek ELF", "geçersiz ELF başlığı",
      "neplatný hlavička ELF"}},
    // Its "wrong ELF class: ELFCLASS32" (and 64) up to the class, whose separator varies.
    {"wrong ELF class",
     {"错误的 ELF 类", "錯誤 ELF 類別", "間違った ELF クラスです", "ELF 클래스가 틀렸습니다",
      "falsche ELF-Klasse", "mauvaise classe ELF", "clase ELF errónea", "classe ELF errata",
      "classe ELF errada", "неправильный класс ELF", "помилковий клас ELF", "niewłaściwa klasa ELF",
      "yanlış ELF sınıfı", "chybná třída ELF"}},
    {"cannot read file data",
     {"无法读入文件数据", "無法讀取檔案資料", "ファイルデータを読み込めません",
      "파일 데이터를 읽을 수 없습니다", "Kann die Datei-Daten nicht lesen",
      "ne peut lire les données du fichier", "no se pueden leer los datos del fichero",
      "impossibile leggere il file di dati", "não foi possível carregar dados do arquivo",
      "невозможно прочитать данные файла", "не вдалося прочитати дані файла",
      "nie można odczytać danych z pliku", "dosya verisi okunamıyor",
      "data ze souboru nelze načíst"}},
    {"Is a directory",
     {"是一个目录", "是個目錄", "ディレクトリです", "디렉터리입니다", "Ist ein Verzeichnis",
      "est un dossier", "Es un directorio", "È una directory", "É um diretório", "Это каталог",
      "Є каталогом", "Jest katalogiem", "Bir dizin", "je adresářem"}},
};

std::string loader_words_in_english(std::string_view line) {
  std::string out(line);
  for (const LoaderWords &w : kLoaderWords)
    for (std::string_view form : w.translated)
      for (std::size_t at = out.find(form); at != std::string::npos; at = out.find(form, at))
        out.replace(at, form.size(), w.english), at += w.english.size();
  return out;
}

std::string folded(std::string_view line) {
  std::string s(line);
  for (char &c : s) c = fold(c);
  return s;
}

Finding found(FindingKind kind, std::string framework, std::string note) {
  Finding f;
  f.recognized = true;
  f.kind = kind;
  f.framework = std::move(framework);
  f.note = std::move(note);
  return f;
}

std::optional<Finding> not_found(std::string_view library) {
  if (!names_cudnn_library(library)) return std::nullopt;
  Finding f = found(FindingKind::library_not_found);
  f.library = std::string(basename_of(library));
  return f;
}

Finding mismatch(std::string framework, Rule rule, std::optional<Version> runtime,
                 std::optional<Version> built, std::string note) {
  Finding f = found(FindingKind::version_mismatch);
  f.framework = std::move(framework);
  f.rule = rule;
  f.runtime = runtime;
  f.built_with = built;
  f.note = std::move(note);
  return f;
}

Finding mismatch_in(std::string_view line, std::string framework, Rule rule,
                    std::optional<Version> runtime, std::optional<Version> built) {
  return mismatch(std::move(framework), rule, runtime, built, raw_numbers(line));
}

}  // namespace cudnn_compat::explain
