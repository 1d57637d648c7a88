/* html.c -- the analysis as one self-contained HTML file that works offline.
 *
 * The page carries its data as JSON in a <script type="application/json">
 * element and renders it with a few hundred lines of plain JavaScript: summary
 * charts drawn as inline SVG (categories by model, share correct by model), a
 * sortable, filterable table of every (model, item) pair, and, for a clicked
 * row, the question, the gold and predicted SQL with the differing parts marked,
 * the categories with their evidence, the scores and, with --witness, the
 * evidence of execution: the witness database's tables beside the two
 * answers. No network, no library.
 * When it has rendered, the body says so (data-rows, data-errors) for tests. */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A byte offset into UTF-8 text as a JavaScript (UTF-16) string index. */
static int js_index(const char *s, int byte) {
  int units = 0;
  for (int i = 0; s[i] && i < byte; i++) {
    unsigned char c = (unsigned char)s[i];
    if ((c & 0xC0) == 0x80) continue;
    units += (c >= 0xF0) ? 2 : 1;
  }
  return units;
}

static void spans(strbuf *sb, const char *text, const int *v, int n) {
  sb_putc(sb, '[');
  for (int k = 0; k < n; k++)
    sb_printf(sb, "%s%d,%d", k ? "," : "", js_index(text, v[2 * k]), js_index(text, v[2 * k + 1]));
  sb_putc(sb, ']');
}

/* A repair for the page: {s: the repaired SQL, c: its categories, e: their
 * evidence, n: the parts with no effect or null}, or 0. */
static void repair_data(strbuf *sb, const sqlsim_record *r) {
  if (!r->repair.sql) {
    sb_putc(sb, '0');
    return;
  }
  const sqlsim_categories *c = &r->repair.cats;
  sb_puts(sb, "{\"s\":");
  sb_json_str_script(sb, r->repair.sql);
  sb_puts(sb, ",\"c\":[");
  for (int i = 0; i < c->nranked; i++) {
    if (i) sb_putc(sb, ',');
    sb_json_str_script(sb, sqlsim_category_names[c->ranked[i]]);
  }
  sb_puts(sb, "],\"e\":[");
  for (int i = 0; i < c->nranked; i++) {
    if (i) sb_putc(sb, ',');
    sb_json_str_script(sb, c->evidence[c->ranked[i]] ? c->evidence[c->ranked[i]] : "");
  }
  sb_puts(sb, "],\"n\":");
  if (r->repair.no_effect) sb_json_str_script(sb, r->repair.no_effect);
  else sb_puts(sb, "null");
  sb_putc(sb, '}');
}

/* strict's verdict in words, with how far it was checked (the solver's
 * bound, or why not): a JSON string, or null when strict was not asked. */
static void strict_data(strbuf *sb, const sqlsim_record *r) {
  const sqlsim_synth *y = &r->synth;
  if (!r->has_synth || y->strict < 0) {
    sb_puts(sb, "null");
    return;
  }
  char t[512];
  snprintf(t, sizeof t, "%s%s%s", y->strict ? "passes" : y->by_solver ? "refuted by the solver" : "refuted",
           y->solver[0] ? "; " : "", y->solver);
  sb_json_str_script(sb, t);
}

/* A witness for the page: {v: verdict, t: tables (JSON text) or null, g, p:
 * the answers' first rows (JSON text), gc, pc: counts (-1: failed), e: the
 * prediction's error, nn: strict's needs_null (1, 0; -1 not refuted)}; 0
 * without one. */
static void witness_data(strbuf *sb, const sqlsim_witness *w, int needs_null) {
  if (!w) {
    sb_putc(sb, '0');
    return;
  }
  sb_puts(sb, "{\"v\":");
  sb_json_str_script(sb, w->verdict);
  sb_puts(sb, ",\"t\":");
  if (w->tables) sb_json_str_script(sb, w->tables);
  else sb_puts(sb, "null");
  sb_puts(sb, ",\"g\":");
  sb_json_str_script(sb, w->gold_rows ? w->gold_rows : "[]");
  sb_puts(sb, ",\"p\":");
  sb_json_str_script(sb, w->pred_rows ? w->pred_rows : "[]");
  sb_printf(sb, ",\"gc\":%ld,\"pc\":%ld,\"e\":", w->gold_count, w->pred_count);
  if (w->pred_error) sb_json_str_script(sb, w->pred_error);
  else sb_puts(sb, "null");
  sb_printf(sb, ",\"nn\":%d}", needs_null);
}

static const char *const CSS =
    "body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}"
    "header{background:#1d2330;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px}"
    "header p{margin:4px 0 0;color:#b8c0d0}main{padding:16px 24px}"
    "section.bench{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:12px 16px;margin:0 0 16px}"
    "h2{font-size:16px;margin:4px 0 8px}h3{font-size:13px;font-weight:600;margin:6px 0;color:#445}.charts{display:flex;flex-wrap:wrap;gap:24px}"
    ".legend span{display:inline-block;margin-right:12px}.sw{display:inline-block;width:10px;height:10px;margin-right:4px}"
    "#filters{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0}"
    "#filters input[type=search]{width:280px;padding:4px 6px}select{padding:3px}"
    "table{border-collapse:collapse;width:100%;background:#fff}th,td{border-bottom:1px solid #e5e8ee;padding:4px 6px;text-align:left;vertical-align:top}"
    "th{position:sticky;top:0;background:#eef1f6;cursor:pointer;user-select:none;white-space:nowrap}"
    "th.asc:after{content:' \\25b2'}th.desc:after{content:' \\25bc'}"
    "tr.item:hover{background:#f0f5ff;cursor:pointer}td.num{text-align:right;font-variant-numeric:tabular-nums}"
    ".chip{display:inline-block;border-radius:10px;padding:0 7px;margin:1px 2px;font-size:12px;background:#e8ebf2}.chip.main{font-weight:bold;outline:1px solid #556}"
    ".chip.correct,.chip.correct_other_form{background:#d7f2dc}.chip.unparseable,.chip.dialect_error,.chip.execution_error{background:#f8d7d7}"
    "tr.detail td{background:#fbfbfd}pre{white-space:pre-wrap;word-break:break-word;margin:4px 0;padding:6px;background:#f3f4f7;border-radius:4px}"
    "mark{background:#ffe08a;padding:0 1px}.ev{margin:2px 0}.ev b{font-weight:600}#count{color:#556}"
    ".wit{display:flex;flex-wrap:wrap;gap:16px;margin:6px 0}.wit table{width:auto;font-size:12px;border:1px solid #dde1e8}"
    ".wit th{position:static;cursor:default}.wit caption{text-align:left;font-weight:600;padding:2px 0}"
    ".wit td.null{color:#99a}";

static const char *const JS =
    "(function(){'use strict';\n"
    "var errors=0;window.addEventListener('error',function(){errors++;document.body.dataset.errors=errors;});\n"
    "var D=JSON.parse(document.getElementById('data').textContent);var CAT=D.categories;\n"
    "var COLORS=['#4e79a7','#f28e2b','#e15759','#76b7b2','#59a14f','#edc948','#b07aa1','#ff9da7','#9c755f','#bab0ac'];\n"
    "function esc(s){return String(s==null?'':s).replace(/[&<>\"]/g,function(c){return {'&':'&amp;','<':'&lt;','>':'&gt;','\"':'&quot;'}[c];});}\n"
    "function catsOf(m,mn){var r=mn>=0?[CAT[mn]]:[];for(var k=0;k<CAT.length;k++)if(k!==mn&&(m&(1<<k)))r.push(CAT[k]);return r;}\n"
    "function shortNames(ms){if(ms.length<2)return ms.slice();var p=ms[0].length;ms.forEach(function(m){var k=0;while(k<p&&k<m.length&&m[k]===ms[0][k])k++;p=k;});return ms.map(function(m){return p<m.length?m.slice(p):m;});}\n"
    "function svgHeat(b){var nm=b.models.length,cw=Math.max(56,Math.min(96,Math.floor(900/nm))),rh=20,lw=150,top=72,used=[];\n"
    " for(var k=0;k<CAT.length;k++){var any=false;for(var m=0;m<nm;m++)if(b.counts[m][k])any=true;if(any)used.push(k);}\n"
    " var W=lw+nm*cw+10,H=top+used.length*rh+6,sn=shortNames(b.models);\n"
    " var s='<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"'+W+'\" height=\"'+H+'\" role=\"img\"><title>Share of items in each category, by model</title>';\n"
    " for(var m=0;m<nm;m++){var x=lw+m*cw+cw/2;s+='<text transform=\"translate('+x+','+(top-6)+') rotate(-30)\" font-size=\"11\"><title>'+esc(b.models[m])+'</title>'+esc(sn[m].slice(0,18))+'</text>';}\n"
    " used.forEach(function(k,r){var y=top+r*rh;s+='<text x=\"'+(lw-6)+'\" y=\"'+(y+14)+'\" text-anchor=\"end\" font-size=\"12\">'+esc(CAT[k])+'</text>';\n"
    "  for(var m=0;m<nm;m++){var v=b.counts[m][k]/b.n,good=k<2,a=Math.min(1,Math.sqrt(v)),col=good?'89,161,79':'225,87,89';\n"
    "   s+='<rect x=\"'+(lw+m*cw)+'\" y=\"'+y+'\" width=\"'+(cw-2)+'\" height=\"'+(rh-2)+'\" fill=\"rgba('+col+','+(0.08+0.85*a).toFixed(3)+')\"><title>'+esc(b.models[m])+' \\u2014 '+CAT[k]+': '+b.counts[m][k]+' of '+b.n+'</title></rect>';\n"
    "   s+='<text x=\"'+(lw+m*cw+cw/2-1)+'\" y=\"'+(y+14)+'\" text-anchor=\"middle\" font-size=\"11\" fill=\"'+(a>0.6?'#fff':'#223')+'\">'+(100*v).toFixed(1)+'</text>';}});\n"
    " return s+'</svg>';}\n"
    "function svgCorrect(b){var W=380,rowH=22,labelW=170,nm=b.models.length,H=nm*rowH+10,sn=shortNames(b.models);\n"
    " var s='<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"'+W+'\" height=\"'+H+'\" role=\"img\"><title>Share correct by model</title>';\n"
    " for(var m=0;m<nm;m++){var c=b.counts[m][0]+b.counts[m][1],v=c/b.n,w=Math.round(v*(W-labelW-50));\n"
    "  s+='<text x=\"'+(labelW-6)+'\" y=\"'+(m*rowH+15)+'\" text-anchor=\"end\" font-size=\"12\"><title>'+esc(b.models[m])+'</title>'+esc(sn[m].slice(0,24))+'</text>';\n"
    "  s+='<rect x=\"'+labelW+'\" y=\"'+(m*rowH+3)+'\" width=\"'+w+'\" height=\"16\" fill=\"#59a14f\"></rect><text x=\"'+(labelW+w+4)+'\" y=\"'+(m*rowH+15)+'\" font-size=\"11\">'+(100*v).toFixed(1)+'%</text>';}\n"
    " return s+'</svg>';}\n"
    "var rows=[];D.benchmarks.forEach(function(b,bi){b.counts=b.models.map(function(){return CAT.map(function(){return 0;});});\n"
    " b.items.forEach(function(it){var m=it[1];if(it[10]>=0)b.counts[m][it[10]]++;rows.push({b:bi,it:it});});\n"
    " b.n=b.gold.length;});\n"
    "var sum=document.getElementById('summary');\n"
    "D.benchmarks.forEach(function(b){var sec=document.createElement('section');sec.className='bench';\n"
    " var leg='models: '+b.models.map(function(m){return '<span>'+esc(m)+'</span>';}).join('');\n"
    " sec.innerHTML='<h2>'+esc(b.name)+' \\u2014 '+b.n+' items \\u00d7 '+b.models.length+' models'+(b.executed?'':' (structure only)')+'</h2><div class=\"legend\">'+leg+'</div><div class=\"charts\"><div><h3>correct (same result, or no difference that counts)</h3>'+svgCorrect(b)+'</div><div><h3>% of items in each category (an item can be in several)</h3>'+svgHeat(b)+'</div></div>';\n"
    " sum.appendChild(sec);});\n"
    "var fb=document.getElementById('fbench'),fm=document.getElementById('fmodel'),fc=document.getElementById('fcat');\n"
    "D.benchmarks.forEach(function(b,i){fb.add(new Option(b.name,i));});\n"
    "var names={};D.benchmarks.forEach(function(b){b.models.forEach(function(m){names[m]=1;});});Object.keys(names).forEach(function(m){fm.add(new Option(m,m));});\n"
    "CAT.forEach(function(c,k){fc.add(new Option(c,k));});\n"
    "function num(v,d){return v==null||v<0?'':(+v).toFixed(d);}\n"
    "function rowHtml(r,i){var b=D.benchmarks[r.b],it=r.it,g=b.gold[it[0]];\n"
    " return '<tr class=\"item\" data-i=\"'+i+'\"><td>'+esc(b.name)+'</td><td>'+esc(b.models[it[1]])+'</td><td class=\"num\">'+it[0]+'</td><td>'+esc(g.db)+'</td><td>'+esc(g.grp)+'</td><td>'+\n"
    "  catsOf(it[2],it[10]).map(function(c,j){return '<span class=\"chip '+c+(j?'':' main')+'\">'+c+'</span>';}).join('')+'</td><td class=\"num\">'+(it[3]<0?'':it[3])+'</td><td class=\"num\">'+num(it[4],3)+'</td><td class=\"num\">'+num(it[5],3)+'</td><td class=\"num\">'+(it[6]<0?'':it[6])+'</td></tr>';}\n"
    "var tbody=document.getElementById('rows'),sortKey=null,sortDir=1,view=rows.slice();\n"
    "var KEYS=[function(r){return D.benchmarks[r.b].name;},function(r){return D.benchmarks[r.b].models[r.it[1]];},function(r){return r.it[0];},function(r){return D.benchmarks[r.b].gold[r.it[0]].db;},\n"
    " function(r){return D.benchmarks[r.b].gold[r.it[0]].grp;},function(r){return catsOf(r.it[2],r.it[10]).join(' ');},function(r){return r.it[3];},function(r){return r.it[4];},function(r){return r.it[5];},function(r){return r.it[6];}];\n"
    "function render(){var q=document.getElementById('q').value.toLowerCase(),bv=fb.value,mv=fm.value,cv=fc.value,wrong=document.getElementById('wrong').checked;\n"
    " view=rows.filter(function(r){var b=D.benchmarks[r.b],it=r.it,g=b.gold[it[0]];if(bv!==''&&+bv!==r.b)return false;if(mv!==''&&b.models[it[1]]!==mv)return false;\n"
    "  if(cv!==''&&!(it[2]&(1<<+cv)))return false;if(wrong&&(it[2]&3))return false;\n"
    "  if(q){var p=b.preds[it[1]][it[0]];if((g.sql+' '+p+' '+g.q+' '+g.db).toLowerCase().indexOf(q)<0)return false;}return true;});\n"
    " if(sortKey!==null){var f=KEYS[sortKey];view.sort(function(a,c){var x=f(a),y=f(c);return (x<y?-1:x>y?1:0)*sortDir;});}\n"
    " var h=[];for(var i=0;i<view.length;i++)h.push(rowHtml(view[i],i));tbody.innerHTML=h.join('');\n"
    " document.getElementById('count').textContent=view.length+' of '+rows.length+' rows';document.body.dataset.rows=view.length;}\n"
    "function mark(text,sp){if(!sp||!sp.length)return esc(text);var v=[];for(var k=0;k<sp.length;k+=2)v.push([sp[k],sp[k+1]]);v.sort(function(a,b){return a[0]-b[0];});\n"
    " var m=[];v.forEach(function(s){if(m.length&&s[0]<=m[m.length-1][1])m[m.length-1][1]=Math.max(m[m.length-1][1],s[1]);else m.push([s[0],s[1]]);});\n"
    " var out='',at=0;m.forEach(function(s){out+=esc(text.slice(at,s[0]))+'<mark>'+esc(text.slice(s[0],s[1]))+'</mark>';at=s[1];});return out+esc(text.slice(at));}\n"
    "tbody.addEventListener('click',function(e){var tr=e.target.closest('tr.item');if(!tr)return;var nx=tr.nextSibling;\n"
    " if(nx&&nx.classList&&nx.classList.contains('detail')){nx.remove();return;}var r=view[+tr.dataset.i],b=D.benchmarks[r.b],it=r.it,g=b.gold[it[0]],p=b.preds[it[1]][it[0]];\n"
    " var ev=it[9]||{},evh=catsOf(it[2],it[10]).map(function(c){return '<div class=\"ev\"><span class=\"chip '+c+'\">'+c+'</span> '+esc(ev[c]||'')+'</div>';}).join('');\n"
    " var d=document.createElement('tr');d.className='detail';d.innerHTML='<td colspan=\"10\">'+(g.q?'<div><b>Question:</b> '+esc(g.q)+'</div>':'')+\n"
    "  '<div><b>Gold</b></div><pre>'+mark(g.sql,it[7])+'</pre><div><b>Prediction</b> ('+esc(b.models[it[1]])+')</div><pre>'+mark(p,it[8])+'</pre>'+evh+\n"
    "  '<div>exact '+(it[3]<0?'n/a':it[3])+' \\u00b7 BIS '+num(it[4],3)+' \\u00b7 calibrated '+num(it[5],3)+' \\u00b7 EX '+(it[6]<0?'n/a':it[6])+'</div>'+(it[13]?'<div><b>Strict</b>: '+esc(it[13])+'</div>':'')+witness(it[11])+repair(it[12])+'</td>';tr.after(d);});\n"
    "function cell(v){return v===null?'<td class=\\\"null\\\">NULL</td>':'<td>'+esc(v)+'</td>';}\n"
    "function tab(cap,cols,rows){return '<table><caption>'+cap+'</caption>'+(cols?'<tr>'+cols.map(function(c){return '<th>'+esc(c)+'</th>';}).join('')+'</tr>':'')+\n"
    " rows.map(function(r){return '<tr>'+r.map(cell).join('')+'</tr>';}).join('')+'</table>';}\n"
    "function nrows(n){return n+(n===1?' row':' rows');}\n"
    "function witness(w){if(!w)return '';var g=JSON.parse(w.g),p=JSON.parse(w.p),s='<div><b>Evidence</b> ('+esc(w.v)+'): ';\n"
    " if(w.t){var T=JSON.parse(w.t),n=0;T.forEach(function(t){n+=t.rows.length;});s+='a database of '+nrows(n)+' the schema allows, on which the two answer differently'+\n"
    " (w.nn===1?'; <b>it needs a NULL</b> (no database without one was found that tells them apart)':w.nn===0?'; it holds no NULL':'');}\n"
    " else s+='the real database: the first rows each query returned that the other did not';\n"
    " s+='</div><div class=\\\"wit\\\">';if(w.t)JSON.parse(w.t).forEach(function(t){s+=tab(esc(t.name),t.columns,t.rows);});\n"
    " s+=tab('gold: '+nrows(w.gc),null,g);s+=w.pc<0?'<div><b>prediction fails:</b> '+esc(w.e)+'</div>':tab('prediction: '+nrows(w.pc),null,p);return s+'</div>';}\n"
    "function repair(x){if(!x)return '';var s='<div><b>Repair</b>: the prediction with these parts fixed gives the gold\\'s answer</div>';\n"
    " x.c.forEach(function(c,k){s+='<div class=\\\"ev\\\"><span class=\\\"chip '+c+'\\\">'+c+'</span> '+esc(x.e[k])+'</div>';});\n"
    " s+='<pre>'+esc(x.s)+'</pre>';if(x.n)s+='<div>also differs, no effect on the answer: '+esc(x.n)+'</div>';return s;}\n"
    "document.querySelectorAll('th').forEach(function(th,k){th.addEventListener('click',function(){if(sortKey===k)sortDir=-sortDir;else{sortKey=k;sortDir=1;}\n"
    " document.querySelectorAll('th').forEach(function(t){t.className='';});th.className=sortDir>0?'asc':'desc';render();});});\n"
    "['q','fbench','fmodel','fcat','wrong'].forEach(function(id){document.getElementById(id).addEventListener('input',render);});\n"
    "render();var mh=/open=(\\d+)/.exec(location.hash);if(mh){var tr=tbody.querySelector('tr.item[data-i=\"'+mh[1]+'\"]');if(tr){tr.click();}}\n"
    "document.body.dataset.errors=errors;document.body.dataset.ready='1';})();\n";

int html_report(const char *path, const run *groups, int ngroups) {
  FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
  if (!f) return -1;
  strbuf sb = {0};
  sb_puts(&sb, "{\"categories\":[");
  for (int k = 0; k < SQLSIM_NCAT; k++) {
    if (k) sb_putc(&sb, ',');
    sb_json_str_script(&sb, sqlsim_category_names[k]);
  }
  sb_puts(&sb, "],\"benchmarks\":[");
  for (int gi = 0; gi < ngroups; gi++) {
    const run *g = &groups[gi];
    const run *c = g;
    if (gi) sb_putc(&sb, ',');
    sb_puts(&sb, "{\"name\":");
    const char *b = strrchr(g->gold_path, '/');
    sb_json_str_script(&sb, b ? b + 1 : g->gold_path);
    sb_printf(&sb, ",\"executed\":%s,\"models\":[", g->with_db ? "true" : "false");
    for (int p = 0; p < g->npreds; p++) {
      if (p) sb_putc(&sb, ',');
      sb_json_str_script(&sb, model_name(g, p));
    }
    sb_puts(&sb, "],\"gold\":[");
    for (int i = 0; i < c->scored; i++) {
      const sqlsim_item *it = &c->gold->items[i];
      sb_puts(&sb, i ? ",{\"db\":" : "{\"db\":");
      sb_json_str_script(&sb, it->db_id);
      sb_puts(&sb, ",\"grp\":");
      sb_json_str_script(&sb, run_group(c, i));
      sb_puts(&sb, ",\"q\":");
      sb_json_str_script(&sb, it->question);
      sb_puts(&sb, ",\"sql\":");
      sb_json_str_script(&sb, it->sql);
      sb_putc(&sb, '}');
    }
    sb_puts(&sb, "],\"preds\":[");
    for (int p = 0; p < g->npreds; p++) {
      sb_puts(&sb, p ? ",[" : "[");
      for (int i = 0; i < c->scored; i++) {
        if (i) sb_putc(&sb, ',');
        sb_json_str_script(&sb, g->pred[p]->items[i].sql);
      }
      sb_putc(&sb, ']');
    }
    /* items: [gold, model, categories, exact, bis, score, ex, gold spans, pred spans, evidence, main category,
     * witness or 0, repair or 0]; the witness's tables and rows are JSON text in strings (script-safe), parsed when shown */
    sb_puts(&sb, "],\"items\":[");
    int first = 1;
    for (int i = 0; i < c->scored; i++)
      for (int p = 0; p < g->npreds; p++) {
        const sqlsim_record *r = run_record(c, p, i);
        int ex = r->exec.bird < 0 ? -1 : g->bird ? r->exec.bird : r->exec.spider;
        sb_printf(&sb, "%s[%d,%d,%u,%d,%.4g,%.4g,%d,", first ? "" : ",", i, p, r->analysis.cats.mask,
                  r->has_match ? r->match.exact : -1, r->structure.bis, r->score, ex);
        first = 0;
        spans(&sb, c->gold->items[i].sql, r->analysis.gspans, r->analysis.ngspans);
        sb_putc(&sb, ',');
        spans(&sb, g->pred[p]->items[i].sql, r->analysis.pspans, r->analysis.npspans);
        sb_puts(&sb, ",{");
        int ef = 1;
        for (int k = 0; k < SQLSIM_NCAT; k++)
          if ((r->analysis.cats.mask & (1u << k)) && r->analysis.cats.evidence[k]) {
            if (!ef) sb_putc(&sb, ',');
            sb_json_str_script(&sb, sqlsim_category_names[k]);
            sb_putc(&sb, ':');
            sb_json_str_script(&sb, r->analysis.cats.evidence[k]);
            ef = 0;
          }
        sb_printf(&sb, "},%d,", r->analysis.cats.main);
        witness_data(&sb, r->witness, r->has_synth && r->synth.strict == 0 ? r->synth.needs_null : -1);
        sb_putc(&sb, ',');
        repair_data(&sb, r);
        sb_putc(&sb, ',');
        strict_data(&sb, r);
        sb_putc(&sb, ']');
      }
    sb_puts(&sb, "]}");
  }
  sb_puts(&sb, "]}");
  fprintf(f,
          "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
          "<title>sqlsim error analysis</title><style>%s</style></head>\n"
          "<body data-rows=\"0\" data-errors=\"0\"><header><h1>sqlsim error analysis</h1>"
          "<p>What kinds of mistakes each model makes: categories from the tree diff and, where a "
          "database was given, from execution. Click a row for the SQL with its differences marked.</p></header>\n"
          "<main><div id=\"summary\"></div>\n<div id=\"filters\"><input id=\"q\" type=\"search\" "
          "placeholder=\"search SQL, question, database\"><select id=\"fbench\"><option value=\"\">all benchmarks</option></select>"
          "<select id=\"fmodel\"><option value=\"\">all models</option></select><select id=\"fcat\">"
          "<option value=\"\">all categories</option></select><label><input id=\"wrong\" type=\"checkbox\"> only wrong</label>"
          "<span id=\"count\"></span></div>\n<table><thead><tr><th>benchmark</th><th>model</th><th>#</th><th>database</th>"
          "<th>group</th><th>categories</th><th>exact</th><th>BIS</th><th>score</th><th>EX</th></tr></thead>"
          "<tbody id=\"rows\"></tbody></table></main>\n",
          CSS);
  for (int gi = 0; gi < ngroups; gi++) audit_html(f, &groups[gi]);
  fputs("<script type=\"application/json\" id=\"data\">", f);
  fwrite(sb.buf, 1, sb.len, f);
  fprintf(f, "</script>\n<script>%s</script>\n</body></html>\n", JS);
  sb_free(&sb);
  if (f == stdout) return fflush(f) == 0 && !ferror(f) ? 0 : -1;
  return fclose(f) == 0 ? 0 : -1;
}
