/*
 * report_html.c - the reachability matrix as one self-contained HTML file:
 * a fabric summary on top and a heat map of the end ports (small fabrics)
 * or of the membership classes (large ones); hovering a cell shows the
 * pair, the shared P_Key(s) and the memberships that allow or forbid it.
 *
 * No network fetches: the style, the script and the data (JSON built with
 * jansson, in a <script type="application/json">) are all inline.  The
 * cell colours come from the matrix computed here; the script only
 * renders them and, on hover, lists the shared bases from the embedded
 * memberships.  "#pin=ROW,COL" in the URL pins the tooltip on a cell
 * (used by the screenshot test).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ibpart/analysis.h"
#include "ibpart/escape.h"
#include "ibpart/pkey.h"

#define PORT_VIEW_LIMIT	 64  /* up to this many end ports: one cell each */
#define CLASS_VIEW_LIMIT 300 /* classes drawn (the largest) */

/* The data's JSON inside <script type="application/json">: every '<' as
 * \u003c (still the same JSON), so no name can open "<!--", "<script"
 * or "</script" there and change where the HTML parser ends the element
 * (JSON_ESCAPE_SLASH alone leaves "<!--<script>" to swallow the page's
 * own closing tag). */
static void put_script_json(FILE *out, const char *js)
{
	for (; *js; js++)
		if (*js == '<')
			fputs("\\u003c", out);
		else
			fputc(*js, out);
}

static json_t *keys_json(const uint16_t *k, size_t nk)
{
	json_t *a = json_array();
	char buf[8];
	for (size_t j = 0; a && j < nk; j++) {
		snprintf(buf, sizeof(buf), "0x%04x", k[j]);
		json_array_append_new(a, json_string(buf));
	}
	return a;
}

/* qsort_r (glibc): the matrix travels with the call, not in a global. */
static int by_size_desc(const void *a, const void *b, void *ctx)
{
	const ibp_matrix *m = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	size_t sx = ibp_matrix_class_size(m, x);
	size_t sy = ibp_matrix_class_size(m, y);
	if (sx != sy)
		return sx < sy ? 1 : -1;
	return (x > y) - (x < y);
}

static json_t *build_data(const ibp_matrix *m,
			  const ibp_matrix_report_options *o)
{
	size_t n = ibp_matrix_endpoint_count(m);
	size_t k = ibp_matrix_class_count(m);
	bool ports = n <= PORT_VIEW_LIMIT;
	json_t *d = json_object();
	json_t *items = json_array();
	json_t *rows = json_array();
	json_t *parts = json_object();
	json_t *classes = json_array();
	if (!d || !items || !rows || !parts || !classes) {
		json_decref(d);
		json_decref(items);
		json_decref(rows);
		json_decref(parts);
		json_decref(classes);
		return NULL;
	}
	json_object_set_new(d, "title",
			    json_string(o && o->title ? o->title : "ibpart"));
	json_object_set_new(d, "mode",
			    json_string(o && o->mode ? o->mode : "tables"));
	json_object_set_new(d, "endpoints", json_integer((json_int_t)n));
	json_object_set_new(d, "classes", json_integer((json_int_t)k));
	json_object_set_new(
	    d, "partitions",
	    json_integer((json_int_t)ibp_matrix_partition_count(m)));
	json_object_set_new(d, "pairs",
			    json_integer((json_int_t)ibp_matrix_pair_count(m)));
	json_object_set_new(
	    d, "all_pairs",
	    json_integer((json_int_t)(n ? (uint64_t)n * (n - 1) / 2 : 0)));
	json_object_set_new(d, "level",
			    json_string(ports ? "ports" : "classes"));
	/* every class, for the partition summary */
	for (size_t c = 0; c < k; c++) {
		size_t nk;
		const uint16_t *ks = ibp_matrix_class_keys(m, c, &nk);
		json_t *cj = json_object();
		json_object_set_new(
		    cj, "size",
		    json_integer((json_int_t)ibp_matrix_class_size(m, c)));
		json_object_set_new(cj, "keys", keys_json(ks, nk));
		json_array_append_new(classes, cj);
		for (size_t j = 0; j < nk; j++) {
			uint16_t b = ibp_pkey_base(ks[j]);
			const char *nm = o && o->partition_names
					     ? o->partition_names[b]
					     : NULL;
			if (nm && *nm) {
				char kb[8];
				snprintf(kb, sizeof(kb), "0x%04x", b);
				json_object_set_new(parts, kb, json_string(nm));
			}
		}
	}
	json_object_set_new(d, "class_list", classes);
	json_object_set_new(d, "names", parts);
	size_t cnt = ports ? n : (k < CLASS_VIEW_LIMIT ? k : CLASS_VIEW_LIMIT);
	size_t *sel = malloc((k + 1) * sizeof(*sel));
	char *bits = malloc(cnt + 1);
	if (!sel || !bits) {
		free(sel);
		free(bits);
		json_decref(items);
		json_decref(rows);
		json_decref(d);
		return NULL;
	}
	if (!ports) {
		for (size_t c = 0; c < k; c++)
			sel[c] = c;
		qsort_r(sel, k, sizeof(*sel), by_size_desc, (void *)m);
	}
	json_object_set_new(d, "shown", json_integer((json_int_t)cnt));
	for (size_t i = 0; i < cnt; i++) {
		json_t *it = json_object();
		char buf[64];
		size_t nk;
		if (ports) {
			size_t c = ibp_matrix_class_of(m, i);
			const uint16_t *ks = ibp_matrix_class_keys(m, c, &nk);
			json_object_set_new(
			    it, "label",
			    json_string(ibp_matrix_endpoint_label(m, i)));
			snprintf(buf, sizeof(buf), "port GUID 0x%016" PRIx64,
				 ibp_matrix_endpoint_guid(m, i));
			json_object_set_new(it, "sub", json_string(buf));
			json_object_set_new(it, "size", json_integer(1));
			json_object_set_new(it, "keys", keys_json(ks, nk));
		} else {
			size_t c = sel[i];
			const uint16_t *ks = ibp_matrix_class_keys(m, c, &nk);
			size_t sz = ibp_matrix_class_size(m, c);
			const size_t *mem = ibp_matrix_class_members(m, c);
			snprintf(buf, sizeof(buf), "C%zu", c);
			json_object_set_new(it, "label", json_string(buf));
			snprintf(buf, sizeof(buf), "%zu port%s", sz,
				 sz == 1 ? "" : "s");
			json_object_set_new(it, "sub", json_string(buf));
			json_object_set_new(it, "size",
					    json_integer((json_int_t)sz));
			json_object_set_new(it, "keys", keys_json(ks, nk));
			json_t *ex = json_array();
			for (size_t j = 0; j < sz && j < 4; j++)
				json_array_append_new(
				    ex, json_string(ibp_matrix_endpoint_label(
					    m, mem[j])));
			json_object_set_new(it, "examples", ex);
		}
		json_array_append_new(items, it);
		for (size_t j = 0; j < cnt; j++) {
			bool t;
			if (ports)
				t = ibp_matrix_can_talk(m, i, j);
			else if (sel[i] == sel[j])
				t = ibp_matrix_class_size(m, sel[i]) > 1 &&
				    ibp_matrix_class_can_talk(m, sel[i],
							      sel[j]);
			else
				t = ibp_matrix_class_can_talk(m, sel[i],
							      sel[j]);
			bits[j] = (!ports || i != j) && t ? '1' : '0';
			if (ports && i == j)
				bits[j] = '-';
		}
		bits[cnt] = 0;
		json_array_append_new(rows, json_string(bits));
	}
	free(sel);
	free(bits);
	json_object_set_new(d, "items", items);
	json_object_set_new(d, "rows", rows);
	return d;
}

static const char style[] =
    "body{font:14px/1.4 system-ui,-apple-system,'Segoe "
    "UI',sans-serif;margin:16px 24px;color:#1d2330;background:#f7f8fa}"
    "h1{font-size:20px;margin:0 0 4px}"
    ".sub{color:#5b6475;margin-bottom:12px}"
    ".cards{display:flex;gap:12px;flex-wrap:wrap;margin:10px 0}"
    ".card{background:#fff;border:1px solid #dde1e8;border-radius:6px;"
    "padding:8px 14px;min-width:110px}"
    ".card b{display:block;font-size:20px}"
    ".card span{color:#5b6475;font-size:12px}"
    ".pbox{max-height:190px;overflow:auto;display:inline-block;margin:4px 0 "
    "12px;border:1px solid #dde1e8}"
    "table.parts{border-collapse:collapse;background:#fff;font-size:13px}"
    "table.parts td,table.parts th{border:1px solid #dde1e8;padding:3px "
    "8px;text-align:left}"
    "#wrap{position:relative;display:inline-block;background:#fff;border:"
    "1px solid #dde1e8;border-radius:6px;padding:8px}"
    "#tip{position:absolute;pointer-events:none;background:#1d2330;color:"
    "#fff;padding:8px 10px;border-radius:5px;font-size:12px;max-width:"
    "420px;display:none;z-index:2;box-shadow:0 2px 8px rgba(0,0,0,.3)}"
    "#tip .ok{color:#7ee08a}#tip .no{color:#ff8a80}"
    ".legend{margin:8px 0;font-size:13px;color:#5b6475}"
    ".sw{display:inline-block;width:12px;height:12px;vertical-align:"
    "middle;margin:0 4px 0 12px;border:1px solid #999}";

static const char script[] =
    "(function(){\n"
    "var D=JSON.parse(document.getElementById('data').textContent);\n"
    "function $(i){return document.getElementById(i);}\n"
    "function esc(s){return String(s).replace(/[&<>\"]/g,function(c){"
    "return{'&':'&amp;','<':'&lt;','>':'&gt;','\"':'&quot;'}[c];});}\n"
    "function base(k){return parseInt(k,16)&0x7fff;}\n"
    "function full(k){return (parseInt(k,16)&0x8000)!==0;}\n"
    "function hex(b){return '0x'+('000'+b.toString(16)).slice(-4);}\n"
    "function pn(b){var h=hex(b);return D.names[h]?D.names[h]+' ('+h+')':h;}\n"
    "$('title').textContent=D.title;\n"
    "var cards=[[D.endpoints,'end ports'],[D.classes,'membership "
    "classes'],[D.partitions,'partitions'],[D.pairs+' / "
    "'+D.all_pairs,'pairs that can talk'],[D.mode,'mode']];\n"
    "$('cards').innerHTML=cards.map(function(c){return '<div "
    "class=card><b>'+esc(c[0])+'</b><span>'+c[1]+'</span></div>';}).join('');\n"
    "var P={};D.class_list.forEach(function(c){c.keys.forEach(function(k){"
    "var b=base(k);P[b]=P[b]||{f:0,l:0};if(full(k))P[b].f+=c.size;else "
    "P[b].l+=c.size;});});\n"
    "var pb=Object.keys(P).map(Number).sort(function(a,b){return a-b;});\n"
    "$('parts').innerHTML='<tr><th>partition</th><th>full "
    "members</th><th>limited members</th></tr>'+pb.slice(0,2000).map("
    "function(b){return "
    "'<tr><td>'+esc(pn(b))+'</td><td>'+P[b].f+'</td><td>'+P[b].l+'</td></"
    "tr>';}).join('')+(pb.length>2000?'<tr><td colspan=3>… "
    "'+(pb.length-2000)+' "
    "more</td></tr>':'');\n"
    "var n=D.shown,it=D.items,ports=D.level==='ports';\n"
    "$('what').textContent=ports?'Heat map of end ports (row can talk to "
    "column).':'Heat map of membership classes ('+n+' largest of "
    "'+D.classes+'; row class members can talk to column class "
    "members). Shade: number of port pairs.';\n"
    "var cs=Math.max(6,Math.min(44,Math.floor(760/Math.max(n,1))));\n"
    "var lab=ports||n<=60?(ports?150:70):0;\n"
    "var cv=$('map'),dpr=window.devicePixelRatio||1;\n"
    "var "
    "W=lab+n*cs+2+Math.round(lab*0.55),H=lab+n*cs+2;cv.width=W*dpr;cv.height=H*"
    "dpr;"
    "cv.style.width=W+'px';cv.style.height=H+'px';\n"
    "var g=cv.getContext('2d');g.scale(dpr,dpr);g.font='12px "
    "system-ui,sans-serif';\n"
    "var mx=1;for(var i=0;i<n;i++)mx=Math.max(mx,it[i].size);\n"
    "for(var r=0;r<n;r++)for(var c=0;c<n;c++){var "
    "v=D.rows[r][c],x=lab+c*cs,y=lab+r*cs;\n"
    " if(v==='-'){g.fillStyle='#c9ced8';}else if(v==='1'){var "
    "s=ports?1:Math.log(1+it[r].size*it[c].size)/Math.log(1+mx*mx);"
    "g.fillStyle='hsl(140,55%,'+Math.round(62-30*s)+'%)';}else "
    "g.fillStyle='#f3d2cf';\n"
    " g.fillRect(x,y,cs-1,cs-1);\n"
    " if(ports&&cs>=16){g.fillStyle=v==='1'?'#fff':'#8a3b33';"
    "g.textAlign='center';g.textBaseline='middle';g.fillText(v==='-'?"
    "'\\u2014':v==='1'?'\\u2713':'\\u2717',x+cs/2,y+cs/2);}}\n"
    "if(lab){g.fillStyle='#1d2330';g.textAlign='right';g.textBaseline="
    "'middle';for(var i=0;i<n;i++){g.fillText(it[i].label,lab-6,lab+i*cs+"
    "cs/2);g.save();g.translate(lab+i*cs+cs/2,lab-6);g.rotate(-Math.PI/"
    "3);g.textAlign='left';g.fillText(it[i].label,0,0);g.restore();}}\n"
    "function mem(k){return (full(k)?'full':'limited')+' ('+k+')';}\n"
    "function explain(r,c){var a=it[r],b=it[c],v=D.rows[r][c];\n"
    " var h='<b>'+esc(a.label)+'</b> <small>'+esc(a.sub)+'</small> &rarr; "
    "<b>'+esc(b.label)+'</b> <small>'+esc(b.sub)+'</small><br>';\n"
    " if(v==='-')return h+'the same port (not a pair)';\n"
    " h+=v==='1'?'<span class=ok>\\u2713 can talk</span>':'<span "
    "class=no>\\u2717 cannot talk</span>';\n"
    " var sh=[];a.keys.forEach(function(x){b.keys.forEach(function(y){if("
    "base(x)===base(y))sh.push([x,y]);});});\n"
    " if(!sh.length)h+='<br>no shared partition';\n"
    " sh.forEach(function(p){var ok=full(p[0])||full(p[1]);h+='<br>'+esc("
    "pn(base(p[0])))+': '+mem(p[0])+' / '+mem(p[1])+' &rarr; '+(ok?'<span "
    "class=ok>match</span>':'<span class=no>limited-limited, no "
    "match</span>');});\n"
    " if(!ports&&r===c&&a.size<2)h+='<br>(one port in this class)';\n"
    " if(a.examples)h+='<br><small>e.g. '+esc(a.examples.join(', "
    "'))+' / '+esc(b.examples.join(', '))+'</small>';\n"
    " return h;}\n"
    "var tip=$('tip');\n"
    "function show(r,c,px,py){tip.innerHTML=explain(r,c);tip.style.display="
    "'block';var w=tip.offsetWidth,h=tip.offsetHeight,x=px+14,y=py+14;"
    "if(x+w>W+16)x=Math.max(0,px-w-14);if(y+h>H+16)y=Math.max(0,py-h-14);"
    "tip.style.left=x+'px';tip.style.top=y+'px';}\n"
    "cv.addEventListener('mousemove',function(e){var "
    "b=cv.getBoundingClientRect(),x=e.clientX-b.left-lab,y=e.clientY-b.top-"
    "lab;var c=Math.floor(x/cs),r=Math.floor(y/cs);if(x<0||y<0||r>=n||c>="
    "n){tip.style.display='none';return;}show(r,c,e.clientX-b.left+8,"
    "e.clientY-b.top+8);});\n"
    "cv.addEventListener('mouseleave',function(){tip.style.display='none';}"
    ");\n"
    "var m=/pin=(\\d+),(\\d+)/.exec(location.hash);if(m){var "
    "r=+m[1],c=+m[2];if(r<n&&c<n)show(r,c,lab+c*cs+cs/2+8,lab+r*cs+cs/"
    "2+8);}\n"
    "})();\n";

int ibp_matrix_report_html(const ibp_matrix *m,
			   const ibp_matrix_report_options *o, FILE *out,
			   ibp_error *err)
{
	json_t *d = build_data(m, o);
	char *js = d ? json_dumps(d, JSON_COMPACT | JSON_ESCAPE_SLASH) : NULL;
	json_decref(d);
	if (!js)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	const char *title = o && o->title ? o->title : "ibpart reachability";
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	      "charset=\"utf-8\">\n<title>",
	      out);
	ibp_escape_html_write(out, title, strlen(title));
	fprintf(out,
		"</title>\n<style>%s</style></head><body>\n"
		"<h1 id=\"title\"></h1>\n<div class=\"sub\">Data-plane "
		"reachability by the IBA P_Key match rule (vol. 1, 10.9.3): "
		"two end ports talk iff they share a partition with at least "
		"one full member. Generated by ibpart.</div>\n"
		"<div class=\"cards\" id=\"cards\"></div>\n"
		"<div class=\"pbox\"><table class=\"parts\" "
		"id=\"parts\"></table></div>\n"
		"<div class=\"legend\" id=\"what\"></div>\n"
		"<div class=\"legend\"><span class=\"sw\" "
		"style=\"background:hsl(140,55%%,40%%)\"></span>can talk"
		"<span class=\"sw\" style=\"background:#f3d2cf\"></span>"
		"cannot talk<span class=\"sw\" "
		"style=\"background:#c9ced8\"></span>same port</div>\n"
		"<div id=\"wrap\"><canvas id=\"map\"></canvas><div "
		"id=\"tip\"></div></div>\n"
		"<script type=\"application/json\" id=\"data\">",
		style);
	put_script_json(out, js);
	fprintf(out, "</script>\n<script>%s</script>\n</body></html>\n",
		script);
	free(js);
	if (ferror(out))
		return ibp_error_set(err, IBP_EIO, "write error");
	return 0;
}
